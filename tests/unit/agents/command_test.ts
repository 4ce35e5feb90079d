import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { buildAgentCommand, MAX_ARG_WORD_BYTES } from "../../../src/agents/command.ts";
import { LisaError } from "../../../src/base/errors.ts";

Deno.test("claude interactive skips permissions by default and puts the prompt last", () => {
  const c = buildAgentCommand({ agent: "claude", mode: "interactive", prompt: "fix it" });
  deepStrictEqual(c.argv, ["claude", "--dangerously-skip-permissions", "fix it"]);
  strictEqual(c.command, "claude --dangerously-skip-permissions 'fix it'");
});

Deno.test("claude interactive without a prompt and without the bypass is a bare claude", () => {
  const c = buildAgentCommand({ agent: "claude", mode: "interactive", skipPermissions: false });
  deepStrictEqual(c.argv, ["claude"]);
  strictEqual(c.command, "claude");
});

Deno.test("claude exec is claude -p <prompt> followed by the flags", () => {
  const c = buildAgentCommand({ agent: "claude", mode: "exec", prompt: "hi", model: "opus" });
  deepStrictEqual(c.argv, [
    "claude",
    "-p",
    "hi",
    "--dangerously-skip-permissions",
    "--model",
    "opus",
  ]);
});

Deno.test("codex interactive runs without the app-server daemon", () => {
  const c = buildAgentCommand({ agent: "codex", mode: "interactive", prompt: "go", model: "o3" });
  deepStrictEqual(c.argv, ["codex", "--no-daemon", "--model", "o3", "go"]);
});

Deno.test("codex exec uses the workspace-write sandbox and never --full-auto or --no-daemon", () => {
  const c = buildAgentCommand({ agent: "codex", mode: "exec", prompt: "go" });
  deepStrictEqual(c.argv, [
    "codex",
    "exec",
    "--sandbox",
    "workspace-write",
    "--skip-git-repo-check",
    "go",
  ]);
  strictEqual(c.command.includes("--full-auto"), false);
  strictEqual(c.command.includes("--no-daemon"), false);
});

Deno.test("extra args go after lisa's flags and before agent-args and the prompt", () => {
  const claude = buildAgentCommand({
    agent: "claude",
    mode: "interactive",
    prompt: "p",
    extraArgs: ["--settings", '{"hooks":{}}', "--session-id", "abc"],
    agentArgs: "--verbose --add-dir /x",
  });
  strictEqual(
    claude.command,
    `claude --dangerously-skip-permissions --settings '{"hooks":{}}' --session-id abc ` +
      `--verbose --add-dir /x p`,
  );
  const codex = buildAgentCommand({
    agent: "codex",
    mode: "exec",
    prompt: "p",
    extraArgs: ["-c", 'notify=["lisa","hook","codex"]'],
  });
  strictEqual(
    codex.command,
    `codex exec --sandbox workspace-write --skip-git-repo-check -c 'notify=["lisa","hook","codex"]' p`,
  );
});

Deno.test("agent-args are shell text inserted as-is, outside argv", () => {
  const c = buildAgentCommand({
    agent: "codex",
    mode: "interactive",
    agentArgs: "  -c model_reasoning_effort=high  ",
  });
  strictEqual(c.agentArgs, "-c model_reasoning_effort=high");
  strictEqual(c.agentArgsIndex, 2);
  deepStrictEqual(c.argv, ["codex", "--no-daemon"]);
  strictEqual(c.command, "codex --no-daemon -c model_reasoning_effort=high");
});

Deno.test("a hostile prompt is one single-quoted word", () => {
  const prompt = `$(touch x) \`id\` '; rm -rf ~; ' "q"\nline2`;
  const c = buildAgentCommand({ agent: "claude", mode: "exec", prompt });
  strictEqual(c.argv[2], prompt);
  strictEqual(
    c.command.startsWith(`claude -p '$(touch x) \`id\` '\\''; rm -rf ~; '\\'' "q"\nline2' `),
    true,
  );
});

Deno.test("a prompt starting with a dash comes last, after --, so no agent reads it as a flag", () => {
  const exec = buildAgentCommand({ agent: "claude", mode: "exec", prompt: "--help me" });
  deepStrictEqual(exec.argv, ["claude", "-p", "--dangerously-skip-permissions", "--", "--help me"]);
  const codex = buildAgentCommand({ agent: "codex", mode: "exec", prompt: "-x" });
  deepStrictEqual(codex.argv.slice(-2), ["--", "-x"]);
});

Deno.test("exec mode without a prompt is a usage error", () => {
  throws(
    () => buildAgentCommand({ agent: "codex", mode: "exec" }),
    (e) => e instanceof LisaError && e.code === "missing_argument" && e.exitCode === 1,
  );
});

Deno.test("an exec prompt too long for one argv word goes to the agent's stdin", () => {
  // Multi-byte characters count as bytes: the kernel's cap is on bytes.
  const fits = "é".repeat((MAX_ARG_WORD_BYTES - 1) / 2) + "x";
  strictEqual(new TextEncoder().encode(fits).length, MAX_ARG_WORD_BYTES);
  const inArgv = buildAgentCommand({ agent: "claude", mode: "exec", prompt: fits });
  strictEqual(inArgv.stdin, null);
  strictEqual(inArgv.argv[2], fits);
  const long = fits + "y";
  const claude = buildAgentCommand({ agent: "claude", mode: "exec", prompt: long, model: "m" });
  deepStrictEqual(claude.argv, ["claude", "-p", "--dangerously-skip-permissions", "--model", "m"]);
  strictEqual(claude.stdin, long);
  ok(claude.command.startsWith("printf '%s' 'éé"));
  ok(claude.command.endsWith("y' | claude -p --dangerously-skip-permissions --model m"));
  const codex = buildAgentCommand({
    agent: "codex",
    mode: "exec",
    prompt: `-${long}`,
    agentArgs: "-c x=1",
  });
  deepStrictEqual(codex.argv.slice(-1), ["-"]);
  strictEqual(codex.stdin, `-${long}`);
  ok(
    codex.command.endsWith("| codex exec --sandbox workspace-write --skip-git-repo-check -c x=1 -"),
  );
});

Deno.test("an interactive prompt too long for one argv word is prompt_too_large", () => {
  for (const agent of ["claude", "codex"] as const) {
    throws(
      () =>
        buildAgentCommand({
          agent,
          mode: "interactive",
          prompt: "a".repeat(MAX_ARG_WORD_BYTES + 1),
        }),
      (e) => e instanceof LisaError && e.code === "prompt_too_large" && e.usage,
    );
  }
});
