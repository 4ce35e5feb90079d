/**
 * `deno task compile`: single binaries for Linux and macOS in dist/. Needs a machine that can
 * download Deno's runtime (`denort`); it cannot run in this workplace. What is compiled is the
 * built lisa (`scripts/build.ts`): `lisa.js` as the main module with its part bundles embedded
 * by `--include`, because it imports them from computed URLs (the compiler cannot see them).
 */
import { BUNDLE_RUN_FLAGS, DENO_PERMISSIONS } from "../src/base/deps.ts";
import { build } from "./build.ts";

const TARGETS = [
  ["x86_64-unknown-linux-gnu", "lisa-linux-x64"],
  ["aarch64-unknown-linux-gnu", "lisa-linux-arm64"],
  ["x86_64-apple-darwin", "lisa-macos-x64"],
  ["aarch64-apple-darwin", "lisa-macos-arm64"],
] as const;

const only = Deno.args[0];
const out = await Deno.makeTempDir({ prefix: "lisa-compile-" });
let failed = 0;
try {
  const { files } = await build(out);
  const parts = files.filter((f) => !f.endsWith("/lisa.js"));
  for (const [target, name] of TARGETS) {
    if (only && only !== target) continue;
    const args = [
      "compile",
      ...DENO_PERMISSIONS,
      ...BUNDLE_RUN_FLAGS,
      ...parts.flatMap((f) => ["--include", f]),
      "--target",
      target,
      "--output",
      `dist/${name}`,
      `${out}/lisa.js`,
    ];
    const { code } = await new Deno.Command(Deno.execPath(), {
      args,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) failed++;
  }
} finally {
  await Deno.remove(out, { recursive: true }).catch(() => {});
}
Deno.exit(failed === 0 ? 0 : 1);
