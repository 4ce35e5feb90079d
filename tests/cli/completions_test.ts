/**
 * `lisa completions bash|zsh|fish`: scripts generated from the command table. The bash script is
 * sourced in a real bash and asked for candidates the way bash's completion does; session names
 * come from the live sessions (a stub `lisa` on PATH answers `completions sessions`).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import { childrenOf, completionScript, flagsOf } from "../../src/cli/completion_script.ts";
import { VERBS } from "../../src/cli/verbs.ts";
import { fakeDeps } from "../helpers/fake_deps.ts";

/** Candidates bash's completion offers for the words typed (the last is being completed). */
async function complete(script: string, words: string[], dir: string): Promise<string[]> {
  const program = [
    script,
    `COMP_WORDS=(${words.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ")})`,
    `COMP_CWORD=${words.length - 1}`,
    "_lisa_complete",
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const out = await new Deno.Command("bash", {
    args: ["--norc", "--noprofile", "-c", program],
    env: { PATH: `${dir}:/usr/bin:/bin`, HOME: dir },
    clearEnv: true,
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "").sort();
}

Deno.test("the bash script completes commands, flags, choices and live session names", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lisa-compl-" });
  try {
    // `lisa completions sessions` as the script calls it: a stub answering two live names.
    Deno.writeTextFileSync(
      `${dir}/lisa`,
      '#!/bin/bash\n[ "$1 $2" = "completions sessions" ] && printf "lisa-app-one\\nlisa-app-two\\n"\n',
      { mode: 0o755 },
    );
    Deno.writeTextFileSync(`${dir}/notes.md`, "");
    const io = new MemoryIo();
    strictEqual(await main(["completions", "bash"], fakeDeps({ io })), 0);
    const script = io.stdout;
    deepStrictEqual(await complete(script, ["lisa", ""], dir), [
      "cleanup",
      "completions",
      "doctor",
      "history",
      "mcp",
      "session",
      "version",
    ]);
    deepStrictEqual(await complete(script, ["lisa", "session", "st"], dir), ["status"]);
    ok((await complete(script, ["lisa", "session", "spawn", "--"], dir)).includes("--no-hooks"));
    deepStrictEqual(await complete(script, ["lisa", "session", "spawn", "--agent", ""], dir), [
      "claude",
      "codex",
    ]);
    deepStrictEqual(
      await complete(script, ["lisa", "session", "monitor", "--expect", "t"], dir),
      ["terminal"],
    );
    deepStrictEqual(
      await complete(script, ["lisa", "session", "status", "--session", "lisa-app-"], dir),
      ["lisa-app-one", "lisa-app-two"],
    );
    deepStrictEqual(
      await complete(script, ["lisa", "session", "send", "--text-file", "no"], dir),
      ["notes.md"],
    );
    deepStrictEqual(await complete(script, ["lisa", "completions", ""], dir), [
      "bash",
      "fish",
      "zsh",
    ]);
    deepStrictEqual(await complete(script, ["lisa", "hoo"], dir), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every verb's flags are in the scripts; hidden commands are not", () => {
  const bash = completionScript("bash");
  const fish = completionScript("fish");
  for (const route of Object.keys(VERBS)) {
    for (const f of flagsOf(route)) {
      ok(bash.includes(f.name), `${route} ${f.name} in bash`);
      ok(fish.includes(`-l ${f.name.slice(2)}`), `${route} ${f.name} in fish`);
    }
  }
  ok(!childrenOf("").includes("hook"));
  ok(!/\bhook\b/.test(fish.replace(/--no-hooks|-l hooks|-l no-hooks/g, "")));
  ok(completionScript("zsh").includes("bashcompinit"));
});

Deno.test("the bash script (also the body of the zsh one) is valid bash", async () => {
  for (
    const script of [completionScript("bash"), completionScript("zsh").replace(/^autoload.*$/m, "")]
  ) {
    const out = await new Deno.Command("bash", { args: ["-n", "-c", script], stderr: "piped" })
      .output();
    strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  }
});
