/**
 * Every argument for another host's lisa is quoted by one function (`remoteCommandLine`), and
 * a POSIX shell reads each back as exactly one word with exactly its bytes: quotes, `$()`,
 * backticks, newlines, leading dashes, globs, comments and non-ASCII text run nothing (checked
 * with every POSIX shell installed, as sshd hands the line to the user's login shell). The
 * hang-up guard ends the remote command when its connection's input closes.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { remoteCommandLine } from "../../src/core/hosts/mod.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import { waitFor } from "../helpers/world.ts";

const SHELLS = ["/bin/sh", "/bin/bash", "/bin/dash", "/bin/zsh", "/bin/ksh", "/bin/mksh"].filter(
  (s) => {
    try {
      return Deno.statSync(s).isFile;
    } catch {
      return false;
    }
  },
);

function hostile(x: string): string[] {
  return [
    "",
    " ",
    "plain",
    "it's",
    '"double"',
    `$(touch ${x}-1)`,
    `\`touch ${x}-2\``,
    "$HOME ${PATH}",
    "a\nb",
    "line\r\n",
    "\ttab",
    `-oProxyCommand=touch ${x}-3`,
    "--json",
    "-",
    "--",
    "*",
    "~",
    "~root",
    "!",
    "!!",
    "\\",
    "\\'",
    `'; touch ${x}-4; '`,
    `a; touch ${x}-5`,
    `a && touch ${x}-6`,
    "a | b > c",
    "#comment",
    "ñ 日本語 🚀",
    "\u00a0nbsp",
    "%s %n",
    "'\\''",
    "$'x'",
    "{a,b}",
    "\u001b[31mred",
  ];
}

Deno.test(`each hostile argument reaches the remote command as one word, byte for byte, and runs nothing (${SHELLS.join(", ")})`, async () => {
  const dir = await Deno.makeTempDir({ prefix: "lisa-quote-" });
  try {
    const args = hostile(`${dir}/PWNED`);
    const runner = new DenoRunner(20_000);
    for (const shell of SHELLS) {
      for (const hangup of [false, true]) {
        const line = remoteCommandLine("printf '%s\\0'", args, hangup);
        const r = await runner.run([shell, "-c", line], {
          cwd: dir,
          ...(hangup ? { holdStdin: true } : {}),
        });
        strictEqual(r.code, 0, `${shell}: ${r.stderr}`);
        deepStrictEqual(r.stdout.split("\0").slice(0, -1), args, `${shell} hangup=${hangup}`);
      }
    }
    deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the hang-up guard passes the exit code through, and ends the command when its input closes", async () => {
  const runner = new DenoRunner(20_000);
  for (const shell of SHELLS) {
    const code = await runner.run([shell, "-c", remoteCommandLine("sh -c 'exit 7'", [], true)], {
      holdStdin: true,
      allowFailure: true,
    });
    strictEqual(code.code, 7, shell);
  }
  // The input closes (the local side went away): the command is ended (SIGTERM: 143).
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", remoteCommandLine("exec sleep", ["3011"], true)],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const started = await waitFor(() => sleepers().length > 0, 10_000);
  ok(started, "the command never started");
  await child.stdin.close();
  const status = await child.status;
  strictEqual(status.code, 143);
  ok(await waitFor(() => sleepers().length === 0, 10_000), `still running: ${sleepers()}`);
});

/** Processes running `sleep 3011`. */
function sleepers(): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).split("\0");
      if (argv[0] === "sleep" && argv[1] === "3011") out.push(+e.name);
    } catch { /* gone */ }
  }
  return out;
}
