import { ok, strictEqual } from "node:assert/strict";
import {
  buildStartupScript,
  DONE_MARKER,
  forwardedEnv,
  HEARTBEAT_ARGV0,
  HEARTBEAT_SUBREAPER,
  START_MARKER,
  type StartupScriptInput,
  SUBREAPER_PERL,
} from "../../../../src/core/spawn/startup_script.ts";

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

Deno.test("on Linux the script first re-executes itself through perl to become a subreaper", async () => {
  const s = buildStartupScript(input({ subreaper: true }));
  const step = s.indexOf(`LISA_SUBREAPER=run-1:0 exec perl -e `);
  ok(step > 0 && step < s.indexOf('rm -f -- "$0"'), "before the script deletes itself");
  ok(s.includes(` run-1 "$BASH" "$0"\n`), "perl re-runs this bash on this script");
  ok(s.includes("shopt -s execfail"), "a perl that cannot run does not end the wrapper");
  ok(s.includes(`[ "\${LISA_SUBREAPER-}" = run-1:1 ] && __lisa_reaper=${HEARTBEAT_SUBREAPER}`));
  ok(s.includes("while __lisa_adopted; do sleep 1; done"));
  ok(s.indexOf("while __lisa_adopted") > s.indexOf(DONE_MARKER), "it waits after the done marker");
  strictEqual(await bashSyntaxOk(s), true);
  const without = buildStartupScript(input());
  ok(!without.includes("perl"));
  ok(without.includes("__lisa_reaper=\n"));
  strictEqual(await bashSyntaxOk(without), true);
});

Deno.test("the perl step compiles and names prctl only for x86_64 and aarch64", async () => {
  const out = await new Deno.Command("perl", {
    args: ["-c", "-e", SUBREAPER_PERL],
    stderr: "piped",
  })
    .output();
  strictEqual(out.success, true, new TextDecoder().decode(out.stderr));
  ok(SUBREAPER_PERL.includes("syscall($nr, 36, 1, 0, 0, 0)"));
  ok(SUBREAPER_PERL.includes("syscall($nr, 37, $v, 0, 0, 0)"));
  ok(/x86_64-linux\/ .*\? 157 : .*aarch64-linux\/ \? 167 : 0;/.test(SUBREAPER_PERL));
});

Deno.test("the heartbeat's sleep carries its name, so a subreaper wrapper does not wait for it", () => {
  const s = buildStartupScript(input({ subreaper: true }));
  ok(s.includes(`(exec -a ${HEARTBEAT_ARGV0} sleep 2); done`));
  ok(s.includes(`case $name:$arg0 in tmux*|:*|*:${HEARTBEAT_ARGV0}) ;; *) return 0 ;; esac`));
  ok(s.includes('printf %s "$__lisa_reaper" > /r/hb'));
});

Deno.test("the done-file barrier waits LISA_DONE_BARRIER_SECONDS for tmux (10 by default), every read included", () => {
  // Reads that wait for tmux's answer; the lines read away before the query are already there
  // (`read -t 0` says so) and are not counted.
  const bounds = (s: string) =>
    s.split("\n").filter((l) => !l.includes("read -t 0")).join("\n").matchAll(
      /read [^\n]*-t (\d+)/g,
    ).toArray().map((m) => Number(m[1]));
  strictEqual(bounds(buildStartupScript(input())).join(","), "10,10,10");
  strictEqual(bounds(buildStartupScript(input({ barrierSeconds: 2 }))).join(","), "2,2,2");
  // Whole seconds only (bash 3.2 takes no fractions): never 0, which would not wait at all.
  strictEqual(bounds(buildStartupScript(input({ barrierSeconds: 0.2 }))).join(","), "1,1,1");
  // Typed-ahead lines go before the query is sent: an answer between two reads would be echoed.
  const script = buildStartupScript(input());
  ok(script.indexOf("read -t 0") > 0 && script.indexOf("read -t 0") < script.indexOf("[6n"));
});
