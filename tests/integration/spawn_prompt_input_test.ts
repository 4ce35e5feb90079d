/**
 * Large prompts at spawn: one argv word is capped by the kernel (Linux: 128 KiB), so a longer
 * exec prompt reaches the agent on stdin, byte-exact; an interactive one is refused before
 * anything is created. Prompts come from --prompt, --prompt-file or stdin (`-`).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { artifactsOf, endStray, readIf, spawn, waitDone } from "./lifecycle_helpers.ts";

/** About `bytes` of prompt: many different lines, hostile shell text, a leading dash. */
function bigPrompt(bytes: number): string {
  const parts = [`--not-a-flag $(touch P1) \`touch P2\` '; touch P3; ' "dq" \\ ñ 日本 🚀\n`];
  let size = new TextEncoder().encode(parts[0]).length;
  for (let i = 0; size < bytes; i++) {
    const line = `line ${i}: ${"y".repeat(70)}\t'"$HOME\n`;
    parts.push(line);
    size += line.length;
  }
  return parts.join("") + "\n\n"; // trailing newlines must survive too
}

Deno.test("a 200 KB --prompt-file reaches claude and codex exec byte-exact on stdin and runs nothing", async () => {
  const world = await makeWorld();
  try {
    const prompt = bigPrompt(200_000);
    ok(new TextEncoder().encode(prompt).length > 200_000);
    const file = `${world.base}/prompt.txt`;
    Deno.writeTextFileSync(file, prompt);
    for (const agent of ["claude", "codex"]) {
      const got = `${world.base}/prompt-${agent}`;
      const argsFile = `${world.base}/args-${agent}`;
      const s = await spawn(
        world,
        ["--agent", agent, "--mode", "exec", "--prompt-file", file],
        { FAKE_PROMPT_FILE: got, FAKE_ARGS_FILE: argsFile },
      );
      strictEqual(await waitDone(world, s), `${s.runId}:0`, `${agent} failed`);
      strictEqual(readIf(got)?.length, prompt.length, `${agent}: prompt length`);
      strictEqual(readIf(got), prompt, `${agent}: prompt bytes`);
      // On stdin, not in argv: codex gets `-`, claude no prompt word at all.
      const argv = readIf(argsFile)!.split("\0").slice(0, -1);
      ok(!argv.some((a) => a.includes("line 1: ")), `${agent}: the prompt is in argv`);
      strictEqual(argv.includes("-"), agent === "codex");
    }
    for (const f of ["P1", "P2", "P3"]) {
      strictEqual(readIf(`${world.projectRoot}/${f}`), undefined, `${f} was created`);
    }
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("--prompt - reads stdin, and a prompt under the cap stays one argument interactively", async () => {
  const world = await makeWorld();
  try {
    const prompt = bigPrompt(100_000);
    const argsFile = `${world.base}/args`;
    const r = await world.lisa(
      ["session", "spawn", "--agent", "codex", "--prompt", "-", "--json"],
      { stdin: prompt, env: { FAKE_ARGS_FILE: argsFile } },
    );
    strictEqual(r.code, 0, r.stdout + r.stderr);
    // The fake writes its argv in several chunks: wait for the whole prompt word.
    const args = await waitFor(() => {
      const text = readIf(argsFile);
      return text?.endsWith(`${prompt}\0`) ? text : undefined;
    }, 30_000);
    ok(args !== undefined, `the agent never got the prompt: ${readIf(argsFile)?.length} bytes`);
    const argv = args.split("\0").slice(0, -1);
    deepStrictEqual(argv.slice(-2), ["--", prompt]);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("an interactive prompt over the argv cap is prompt_too_large and creates nothing", async () => {
  const world = await makeWorld();
  try {
    const file = `${world.base}/prompt.txt`;
    Deno.writeTextFileSync(file, bigPrompt(200_000));
    const r = await world.lisaInProcess([
      "session",
      "spawn",
      "--agent",
      "claude",
      "--session",
      "lisa-big",
      "--prompt-file",
      file,
      "--json",
    ]);
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "prompt_too_large");
    ok(String(r.json?.error).includes("--text-file"), String(r.json?.error));
    deepStrictEqual(artifactsOf(world, "lisa-big"), []);
    deepStrictEqual([...Deno.readDirSync(world.socketDir)], []);
  } finally {
    await world.dispose();
  }
});

Deno.test("--prompt with --prompt-file is conflicting_options; a missing prompt file is file_not_found", async () => {
  const world = await makeWorld();
  try {
    const both = await world.lisaInProcess(
      ["session", "spawn", "--prompt", "x", "--prompt-file", "/dev/null", "--json"],
    );
    strictEqual(both.json?.errorCode, "conflicting_options");
    const missing = await world.lisaInProcess(
      ["session", "spawn", "--prompt-file", `${world.base}/nope`, "--json"],
    );
    strictEqual(missing.code, 1);
    strictEqual(missing.json?.errorCode, "file_not_found");
  } finally {
    await world.dispose();
  }
});

Deno.test("a prompt holding a NUL byte is refused before anything is made (no program can receive it whole)", async () => {
  const world = await makeWorld();
  try {
    const file = `${world.base}/nul.txt`;
    Deno.writeFileSync(file, new TextEncoder().encode("abc\0def"));
    for (const mode of ["exec", "interactive"]) {
      const got = `${world.base}/prompt-${mode}`;
      const r = await world.lisaInProcess(
        ["session", "spawn", "--agent", "claude", "--mode", mode, "--prompt-file", file, "--json"],
        { env: { FAKE_PROMPT_FILE: got } },
      );
      // It used to spawn, and the agent got "abcdef": the byte dropped without a word.
      strictEqual(r.code, 1, `${mode}: ${r.stdout}`);
      strictEqual(r.json?.errorCode, "invalid_argument", r.stdout);
      ok(String(r.json?.error).includes("NUL"), r.stdout);
      strictEqual(readIf(got), undefined, `${mode}: an agent ran`);
    }
    deepStrictEqual([...Deno.readDirSync(world.runtimeDir)], []);
  } finally {
    await endStray();
    await world.dispose();
  }
});
