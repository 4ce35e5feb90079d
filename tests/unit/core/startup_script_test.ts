import { ok, strictEqual } from "node:assert/strict";
import {
  buildStartupScript,
  DONE_MARKER,
  forwardedEnv,
  START_MARKER,
  type StartupScriptInput,
} from "../../../src/core/startup_script.ts";

function input(over: Partial<StartupScriptInput> = {}): StartupScriptInput {
  return {
    session: "lisa-t",
    runId: "run-1",
    projectRoot: "/p root",
    callerEnv: { PATH: "/bin", API_KEY: "s3cr'et", TMUX: "/x", TERM: "xterm", "a-b": "1" },
    lisaEnv: { LISA_SESSION: "true", LISA_RUN_ID: "run-1" },
    heartbeatFile: "/r/hb",
    doneFile: "/r/done",
    command: { argv: ["claude", "-p", "$(x)"] },
    ...over,
  };
}

async function bashSyntaxOk(script: string): Promise<boolean> {
  const out = await new Deno.Command("bash", { args: ["-n", "-c", script], stderr: "null" })
    .output();
  return out.success;
}

Deno.test("the caller's environment is forwarded except tmux-owned and invalid names", () => {
  const names = forwardedEnv({
    B: "1",
    A: "2",
    TMUX: "x",
    TMUX_PANE: "%1",
    TERM: "t",
    TERM_PROGRAM: "iTerm",
    SHLVL: "2",
    SHELLOPTS: "x",
    "BASH_FUNC_f%%": "() { :; }",
  }).map(([n]) => n);
  strictEqual(names.join(","), "A,B");
});

Deno.test("the script deletes itself, exports the caller env, then the LISA vars", () => {
  const s = buildStartupScript(input());
  ok(s.startsWith("# lisa startup script"));
  ok(s.indexOf("umask 077") < s.indexOf('rm -f -- "$0"'));
  ok(s.includes(`export API_KEY='s3cr'\\''et'`));
  ok(!s.includes("export TMUX="));
  ok(!s.includes("export TERM="));
  ok(s.indexOf("export PATH=") < s.indexOf("export LISA_SESSION=true"));
  ok(s.includes("cd -- '/p root'"));
});

Deno.test("an agent runs as quoted argv words and a command through bash -c", () => {
  ok(buildStartupScript(input()).includes("\nclaude -p '$(x)'\n"));
  const s = buildStartupScript(input({ command: { shell: "echo hi; exit 3" } }));
  ok(s.includes("\nbash -c 'echo hi; exit 3'\n"));
});

Deno.test("the script prints both markers and writes the done file through a temp file", () => {
  const s = buildStartupScript(input());
  ok(s.includes(`printf '${START_MARKER}:%s:%s\\n' run-1 "${"$"}{EPOCHSECONDS:-$(date +%s)}"`));
  ok(s.includes(`printf '${DONE_MARKER}:%s:%s\\n' run-1 "$__lisa_exit"`));
  ok(s.includes(`mv -f -- "$__lisa_done.tmp.$$" "$__lisa_done"`));
  ok(s.trimEnd().endsWith('exit "$__lisa_exit"'));
  ok(!/trap [^\n]*EXIT/.test(s), "no EXIT trap may recreate files");
});

Deno.test("a dry-run script hides the caller's values but stays valid bash", async () => {
  const s = buildStartupScript(input({ redactCallerEnv: true }));
  ok(!s.includes("s3cr"));
  ok(s.includes("export of the caller's 2 variables (values not shown)"));
  strictEqual(await bashSyntaxOk(s), true);
});

Deno.test("scripts with hostile prompts, newlines and multi-line commands are valid bash", async () => {
  const hostile = `'; rm -rf ~; '\n$(touch x) \`id\` "q" ñ`;
  strictEqual(
    await bashSyntaxOk(buildStartupScript(input({ command: { argv: ["c", hostile] } }))),
    true,
  );
  strictEqual(
    await bashSyntaxOk(buildStartupScript(input({ command: { shell: "set -e\nfalse\n" } }))),
    true,
  );
});

Deno.test("text for stdin is fed by the printf builtin, never as a program's argv word", async () => {
  const text = `'; rm -rf ~; '\n$(touch x) -n %s\n\n`;
  const argv = buildStartupScript(input({ command: { argv: ["cat"], stdin: text } }));
  ok(argv.includes(`\nprintf '%s' ${`'${text.replaceAll("'", `'\\''`)}'`} | cat\n`));
  const shell = buildStartupScript(input({ command: { shell: "cat -A", stdin: text } }));
  ok(shell.includes(" | bash -c 'cat -A'\n"));
  // What the command reads is the text, byte for byte (trailing newlines, `%s`, quotes).
  const out = await new Deno.Command("bash", {
    args: ["-c", `printf '%s' ${`'${text.replaceAll("'", `'\\''`)}'`} | cat`],
  }).output();
  strictEqual(new TextDecoder().decode(out.stdout), text);
});
