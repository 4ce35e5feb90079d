/**
 * `deno task compile`: single binaries for Linux and macOS in dist/. Needs a machine that can
 * download Deno's runtime (`denort`); it cannot run in this workplace. The whole `src/` tree is
 * embedded with `--include`, because lisa loads its verbs lazily from computed URLs.
 */
import { DENO_PERMISSIONS } from "../src/base/deps.ts";

const TARGETS = [
  ["x86_64-unknown-linux-gnu", "lisa-linux-x64"],
  ["aarch64-unknown-linux-gnu", "lisa-linux-arm64"],
  ["x86_64-apple-darwin", "lisa-macos-x64"],
  ["aarch64-apple-darwin", "lisa-macos-arm64"],
] as const;

const only = Deno.args[0];
let failed = 0;
for (const [target, name] of TARGETS) {
  if (only && only !== target) continue;
  // lisa imports its verbs and hot-path helpers from computed URLs (src/base/lazy.ts), which
  // the compiler cannot see: the source tree is embedded whole.
  const args = [
    "compile",
    ...DENO_PERMISSIONS,
    "--include",
    "src",
    "--target",
    target,
    "--output",
    `dist/${name}`,
  ];
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: [...args, "main.ts"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) failed++;
}
Deno.exit(failed === 0 ? 0 : 1);
