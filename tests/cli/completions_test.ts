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
      "hosts",
      "mcp",
      "session",
      "skill",
      "version",
    ]);
    deepStrictEqual(await complete(script, ["lisa", "session", "st"], dir), ["status"]);
    deepStrictEqual(
      (await complete(script, ["lisa", "skill", "install", "--agent", ""], dir)).sort(),
      ["all", "claude", "codex"],
    );
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

Deno.test("a verb's session argument completes: attach, diff, merge from live sessions, history show from history", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lisa-compl-" });
  try {
    // The stub answers as `lisa completions <kind> <prefix>` does, and says what it was asked.
    Deno.writeTextFileSync(
      `${dir}/lisa`,
      '#!/bin/bash\n[ "$1" = completions ] || exit 1\n' +
        'case "$2" in sessions) printf "app-calm-otter\\napp-bold-fox\\n" ;;' +
        ' history) printf "app-old-owl\\nlisa-app-gone\\n" ;; esac\n' +
        'printf "asked-%s-%s\\n" "$2" "$3"\n',
      { mode: 0o755 },
    );
    const io = new MemoryIo();
    strictEqual(await main(["completions", "bash"], fakeDeps({ io })), 0);
    const script = io.stdout;
    for (const verb of ["attach", "diff", "merge"]) {
      deepStrictEqual(await complete(script, ["lisa", "session", verb, "app-"], dir), [
        "app-bold-fox",
        "app-calm-otter",
      ], verb);
      deepStrictEqual(
        await complete(script, ["lisa", "session", verb, "asked"], dir),
        ["asked-sessions-asked"],
        `${verb} passes what was typed`,
      );
      ok((await complete(script, ["lisa", "session", verb, "--"], dir)).includes("--json"));
    }
    deepStrictEqual(await complete(script, ["lisa", "history", "show", ""], dir), [
      "app-old-owl",
      "asked-history-",
      "lisa-app-gone",
    ]);
    // --for names a session too; spawn's --session is a new name: nothing to offer.
    deepStrictEqual(
      await complete(script, ["lisa", "session", "context-pack", "--for", "app-c"], dir),
      ["app-calm-otter"],
    );
    deepStrictEqual(await complete(script, ["lisa", "session", "spawn", "--session", ""], dir), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a file or directory name with spaces completes as one word, typed quoted or not", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lisa-compl-" });
  try {
    Deno.mkdirSync(`${dir}/my dir`);
    Deno.mkdirSync(`${dir}/myother`);
    Deno.writeTextFileSync(`${dir}/my notes.md`, "");
    const script = completionScript("bash");
    const words = (...typed: string[]) => ["lisa", "session", "spawn", ...typed];
    // --project-root takes a directory; --prompt-file any file.
    deepStrictEqual(await complete(script, words("--project-root", "my"), dir), [
      "my dir",
      "myother",
    ]);
    deepStrictEqual(await complete(script, words("--project-root", "my\\ d"), dir), ["my dir"]);
    deepStrictEqual(await complete(script, words("--project-root", "'my d"), dir), ["my dir"]);
    deepStrictEqual(await complete(script, words("--prompt-file", "my n"), dir), ["my notes.md"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a prefix after a shell's name is refused, not ignored", async () => {
  const io = new MemoryIo();
  strictEqual(await main(["completions", "bash", "x"], fakeDeps({ io })), 1);
  strictEqual(io.stdout, "");
  ok(io.stderr.startsWith('lisa: a prefix ("x") goes with sessions or history'), io.stderr);
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
