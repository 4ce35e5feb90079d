import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  agentVersion,
  atLeast,
  findOnPath,
  parseVersion,
  versionFromInstall,
} from "../../../src/agents/version.ts";
import { loadConfig } from "../../../src/base/config.ts";
import type { Runner } from "../../../src/base/runner.ts";
import { NO_SUBPROCESS } from "../../helpers/fake_deps.ts";

Deno.test("versions are read from text and compared part by part", () => {
  deepStrictEqual(parseVersion("2.1.197 (Claude Code)"), [2, 1, 197]);
  strictEqual(parseVersion("Claude Code"), null);
  strictEqual(atLeast([2, 1, 197], [2, 1, 76]), true);
  strictEqual(atLeast([2, 1, 76], [2, 1, 76]), true);
  strictEqual(atLeast([2, 1, 9], [2, 1, 76]), false);
  strictEqual(atLeast([3, 0, 0], [2, 9, 99]), true);
});

/** A temp dir with `files` (path → text; `#!` texts become executables). */
async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const [rel, text] of Object.entries(files)) {
    const path = `${dir}/${rel}`;
    Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(path, text, { mode: text.startsWith("#!") ? 0o755 : 0o644 });
  }
  return dir;
}

Deno.test("an npm or native install says its version without running the agent", async () => {
  const dir = await tree({
    "npm/lib/node_modules/@anthropic-ai/claude-code/package.json": JSON.stringify({
      name: "@anthropic-ai/claude-code",
      version: "2.1.197",
    }),
    "npm/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe": "#!/bin/sh\n",
    "native/versions/2.1.80": "#!/bin/sh\n",
    "other/package.json": JSON.stringify({ name: "something-else", version: "9.9.9" }),
    "other/bin/claude": "#!/bin/sh\n",
  });
  try {
    strictEqual(
      versionFromInstall(`${dir}/npm/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe`),
      "2.1.197",
    );
    strictEqual(versionFromInstall(`${dir}/native/versions/2.1.80`), "2.1.80");
    strictEqual(versionFromInstall(`${dir}/other/bin/claude`), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an agent whose install says nothing is asked once, then remembered", async () => {
  const dir = await tree({ "bin/claude": "#!/bin/sh\necho '2.1.60 (Claude Code)'\n" });
  Deno.mkdirSync(`${dir}/run`, { mode: 0o700 });
  const calls: string[][] = [];
  const runner: Runner = {
    run(argv) {
      calls.push([...argv]);
      return Promise.resolve({
        code: 0,
        success: true,
        stdout: "2.1.60 (Claude Code)\n",
        stderr: "",
      });
    },
  };
  const env = { PATH: `/nonexistent:${dir}/bin`, LISA_RUNTIME_DIR: `${dir}/run` };
  const deps = { env, config: loadConfig(env, 0).config, runner };
  try {
    strictEqual(findOnPath("claude", env.PATH), `${dir}/bin/claude`);
    strictEqual(await agentVersion(deps, "claude"), "2.1.60");
    deepStrictEqual(calls, [[Deno.realPathSync(`${dir}/bin/claude`), "--version"]]);
    // Remembered: a runner that fails on any call is not called again.
    strictEqual(await agentVersion({ ...deps, runner: NO_SUBPROCESS }, "claude"), "2.1.60");
    // A new install at the same path is asked again.
    Deno.writeTextFileSync(`${dir}/bin/claude`, "#!/bin/sh\necho '2.1.61'\n# longer\n");
    strictEqual(await agentVersion({ ...deps, runner: NO_SUBPROCESS }, "claude"), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("no agent on PATH, or one that cannot say its version, is unknown", async () => {
  const env = { PATH: "/nonexistent" };
  const deps = { env, config: loadConfig(env, 0).config, runner: NO_SUBPROCESS };
  strictEqual(await agentVersion(deps, "claude"), null);
});
