/**
 * `--host`, `HOST:NAME` and the hosts verbs on the command line (issue 24), with a runner that
 * records what would run: a value that is not a host is refused before any ssh runs (option
 * injection included); a call for a host becomes one ssh call carrying the same command line
 * minus the host; a text payload from a file or stdin goes over ssh's stdin; the remote exit
 * code and documents come back with `host`; ssh's own failure is `host_unreachable`.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import type { Runner, RunOptions, RunResult } from "../../src/base/runner.ts";
import { fakeDeps, NO_SUBPROCESS } from "../helpers/fake_deps.ts";
import { fastStatus } from "../../src/cli/fast_status.ts";

interface Recorded {
  argv: string[];
  options: RunOptions;
}

/** A runner that answers every call with `result` and records it. */
function recording(result: Partial<RunResult> = {}): Runner & { calls: Recorded[] } {
  const calls: Recorded[] = [];
  return {
    calls,
    run(argv, options = {}) {
      calls.push({ argv: [...argv], options });
      const r = { code: 0, success: true, stdout: "", stderr: "", ...result };
      if (options.onStdout && r.stdout) options.onStdout(r.stdout);
      return Promise.resolve({ ...r, stdout: options.onStdout ? "" : r.stdout });
    },
  };
}

/** A temp dir with a hosts file of `hosts` (mode 0600) and a runtime dir. */
function setup(hosts: unknown = { hosts: [{ name: "box1", ssh: "me@box1", lisa: "/opt/lisa" }] }) {
  const dir = Deno.makeTempDirSync({ prefix: "lisa-cli-hosts-" });
  Deno.writeTextFileSync(`${dir}/hosts.json`, JSON.stringify(hosts));
  Deno.chmodSync(`${dir}/hosts.json`, 0o600);
  return {
    dir,
    env: {
      LISA_HOSTS_FILE: `${dir}/hosts.json`,
      LISA_RUNTIME_DIR: `${dir}/run`,
      LISA_SSH: "/usr/bin/ssh",
    },
    [Symbol.dispose]: () => Deno.removeSync(dir, { recursive: true }),
  };
}

async function call(
  argv: string[],
  env: Record<string, string>,
  runner: Runner = NO_SUBPROCESS,
  stdin = "",
) {
  const io = new MemoryIo(stdin);
  const code = await main(argv, fakeDeps({ io, env, runner }));
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(io.stdout);
  } catch { /* not one document */ }
  return { code, stdout: io.stdout, stderr: io.stderr, json };
}

Deno.test("a --host that is not a host name is refused before anything runs: option injection included", async () => {
  using s = setup();
  for (
    const argv of [
      [
        "session",
        "status",
        "--host",
        "-oProxyCommand=touch /tmp/pwned",
        "--session",
        "x",
        "--json",
      ],
      ["session", "status", "--host=-oProxyCommand=touch /tmp/pwned", "--session", "x", "--json"],
      ["session", "status", "--host", "Box1", "--session", "x", "--json"],
      ["session", "status", "--session", "-oProxyCommand=x:alias", "--json"],
      ["session", "attach", "-oProxyCommand=x:alias", "--json"],
      ["session", "spawn", "--host", "nosuch", "--command", "x", "--json"],
    ]
  ) {
    const r = await call(argv, s.env);
    strictEqual(r.code, 1, argv.join(" "));
    strictEqual(r.json?.errorCode, "invalid_host", `${argv.join(" ")}: ${r.stdout}${r.stderr}`);
  }
});

Deno.test("a hosts file whose ssh starts with - is refused as a whole: hosts_file_invalid, no ssh", async () => {
  using s = setup({
    hosts: [{ name: "box1", ssh: "box1" }, { name: "evil", ssh: "-oProxyCommand=touch /tmp/x" }],
  });
  for (const host of ["box1", "evil"]) {
    const r = await call(["session", "list", "--host", host, "--json"], s.env);
    strictEqual(r.code, 1);
    strictEqual(r.json?.errorCode, "hosts_file_invalid", r.stdout);
  }
  const all = await call(["session", "list", "--all-hosts", "--json"], s.env);
  strictEqual(all.json?.errorCode, "hosts_file_invalid", all.stdout);
  const list = await call(["hosts", "list", "--json"], s.env);
  strictEqual(list.json?.errorCode, "hosts_file_invalid", list.stdout);
});

Deno.test("two hosts in one call, a host with --all-hosts, or a file flag of this machine are refused", async () => {
  using s = setup({ hosts: [{ name: "box1", ssh: "box1" }, { name: "box2", ssh: "box2" }] });
  const cases: [string[], string][] = [
    [["session", "status", "--host", "box1", "--session", "box2:x"], "conflicting_options"],
    [["session", "list", "--host", "box1", "--all-hosts"], "conflicting_options"],
    [
      ["session", "capture", "--session", "box1:x", "--cursor-file", "/tmp/c"],
      "conflicting_options",
    ],
    [["session", "watch", "--all-hosts", "--session", "x"], "conflicting_options"],
    [["session", "tree", "--all-hosts", "--delta"], "conflicting_options"],
    [["session", "list", "--all-hosts", "--stale"], "conflicting_options"],
  ];
  for (const [argv, code] of cases) {
    const r = await call([...argv, "--json"], s.env);
    strictEqual(r.json?.errorCode, code, `${argv.join(" ")}: ${r.stdout}`);
  }
});

Deno.test("a call for a host is one ssh call: the same command line without the host, its output with host", async () => {
  using s = setup();
  const runner = recording({
    stdout: '{"ok":true,"session":"lisa-a","stderrPolicy":"diagnostic"}\n',
  });
  const r = await call(
    [
      "session",
      "send",
      "--session",
      "box1:brave-otter",
      "--text",
      "it's $(id)",
      "--enter",
      "--json",
    ],
    s.env,
    runner,
  );
  strictEqual(r.code, 0, r.stdout + r.stderr);
  strictEqual(runner.calls.length, 1);
  const { argv, options } = runner.calls[0];
  strictEqual(argv[0], "/usr/bin/ssh");
  deepStrictEqual(argv.slice(-3, -1), ["--", "me@box1"]);
  const line = argv.at(-1)!;
  ok(
    line.includes(
      `/opt/lisa session send --session brave-otter --text 'it'\\''s $(id)' --enter --json`,
    ),
    line,
  );
  // A plain send has a time limit: the host's (30 s), its ready timeout (20 s by default) and its
  // receipt's (5 s). Without one, a send over a shared connection gone silent never returned.
  strictEqual(options.timeoutMs, (30 + 20 + 5) * 1000);
  strictEqual(options.holdStdin, true);
  deepStrictEqual(r.json, {
    host: "box1",
    ok: true,
    session: "lisa-a",
    stderrPolicy: "diagnostic",
  });
});

Deno.test("spawn --host prints the new session as box1:NAME, which names it from here; JSON keeps the bare name with host", async () => {
  using s = setup();
  const human = await call(
    ["session", "spawn", "--host", "box1", "--command", "sleep 60"],
    s.env,
    recording({ stdout: "lisa-remote-1\n" }),
  );
  strictEqual(human.code, 0, human.stdout + human.stderr);
  strictEqual(human.stdout, "box1:lisa-remote-1\n");
  const json = await call(
    ["session", "spawn", "--host", "box1", "--command", "sleep 60", "--json"],
    s.env,
    recording({ stdout: '{"ok":true,"session":"lisa-remote-1"}\n' }),
  );
  deepStrictEqual(json.json, { host: "box1", ok: true, session: "lisa-remote-1" });
  // A dry run's table and other lines pass unchanged.
  const table = "session  lisa-remote-1\nagent    claude\n";
  const dry = await call(
    ["session", "spawn", "--host", "box1", "--command", "x", "--dry-run"],
    s.env,
    recording({ stdout: table }),
  );
  strictEqual(dry.stdout, table);
});

Deno.test("--text-file and --text - go over ssh's stdin, byte for byte; the remote reads --text-file -", async () => {
  using s = setup();
  const text = "line 1\n'quoted' $(x) `y`\nñ 🚀\n";
  Deno.writeTextFileSync(`${s.dir}/msg.md`, text);
  for (
    const [flags, stdin] of [[["--text-file", `${s.dir}/msg.md`], ""], [
      ["--text", "-"],
      text,
    ]] as const
  ) {
    const runner = recording({ stdout: "ok\n" });
    const r = await call(
      ["session", "send", "--host", "box1", "--session", "x", ...flags],
      s.env,
      runner,
      stdin,
    );
    strictEqual(r.code, 0, r.stderr);
    const { argv, options } = runner.calls[0];
    strictEqual(new TextDecoder().decode(options.stdin as Uint8Array), text);
    strictEqual(options.holdStdin, undefined);
    ok(argv.at(-1)!.endsWith(`/opt/lisa session send --session x ${flags[0]} -`), argv.at(-1));
    ok(!argv.at(-1)!.includes("msg.md"));
    strictEqual(r.stdout, "ok\n");
  }
  const missing = await call([
    "session",
    "send",
    "--host",
    "box1",
    "--session",
    "x",
    "--text-file",
    `${s.dir}/nope`,
    "--json",
  ], s.env);
  strictEqual(missing.json?.errorCode, "file_not_found", missing.stdout);
});

Deno.test("the remote exit code passes through; ssh's own failure is host_unreachable; a missing lisa is host_lisa_failed", async () => {
  using s = setup();
  const two = recording({ code: 2, success: false, stdout: '{"finalState":"crashed"}\n' });
  const r = await call(
    ["session", "monitor", "--host", "box1", "--session", "x", "--json"],
    s.env,
    two,
  );
  strictEqual(r.code, 2);
  deepStrictEqual(r.json, { host: "box1", finalState: "crashed" });
  const down = recording({
    code: 255,
    success: false,
    stderr: "ssh: connect to host box1 port 22: Connection refused\n",
  });
  const u = await call(
    ["session", "status", "--host", "box1", "--session", "x", "--json"],
    s.env,
    down,
  );
  strictEqual(u.code, 1);
  strictEqual(u.json?.errorCode, "host_unreachable");
  strictEqual(u.json?.host, "box1");
  ok(String(u.json?.error).includes("Connection refused"), u.stdout);
  const none = recording({
    code: 127,
    success: false,
    stderr: "bash: line 1: /opt/lisa: No such file or directory\n",
  });
  const n = await call(
    ["session", "status", "--host", "box1", "--session", "x", "--json"],
    s.env,
    none,
  );
  strictEqual(n.json?.errorCode, "host_lisa_failed", n.stdout);
  ok(String(n.json?.error).includes("/opt/lisa"), n.stdout);
});

Deno.test("attach --host runs ssh -t to the host's lisa session attach, on this terminal", async () => {
  using s = setup();
  const runner = recording();
  const r = await call(["session", "attach", "box1:brave-otter"], s.env, runner);
  strictEqual(r.code, 0, r.stderr);
  const { argv, options } = runner.calls[0];
  strictEqual(argv[1], "-t");
  strictEqual(options.interactive, true);
  strictEqual(argv.at(-1), "/opt/lisa session attach brave-otter");
});

Deno.test("the status pre-parser hands a call for a host to the command line", async () => {
  strictEqual(await fastStatus(["--host", "box1", "--session", "x"], {}), null);
  strictEqual(await fastStatus(["--session", "box1:x", "--json"], {}), null);
});

Deno.test("watch --sessions of one host goes there without the prefixes; sessions of two machines are refused", async () => {
  using s = setup();
  const runner = recording({ stdout: '{"type":"until_met","at":"t","sessions":[]}\n' });
  const r = await call(
    ["session", "watch", "--sessions", "box1:a,box1:b", "--until", "terminal", "--json"],
    s.env,
    runner,
  );
  strictEqual(r.code, 0, r.stdout + r.stderr);
  ok(runner.calls[0].argv.at(-1)!.includes("session watch --sessions a,b --until terminal --json"));
  strictEqual(r.json?.host, "box1");
  const mixed = await call(["session", "watch", "--sessions", "a,box1:b", "--json"], s.env);
  strictEqual(mixed.json?.errorCode, "conflicting_options", mixed.stdout);
});

Deno.test("send's time limit on a host follows its flags: a turn (--wait) has none, --ready-timeout and --confirm-timeout add theirs", async () => {
  using s = setup();
  const limit = async (extra: string[]) => {
    const runner = recording({ stdout: '{"ok":true}\n' });
    const r = await call(
      ["session", "send", "--session", "box1:brave-otter", "--text", "x", ...extra, "--json"],
      { ...s.env, LISA_HOST_TIMEOUT_SECONDS: "7" },
      runner,
    );
    strictEqual(r.code, 0, r.stdout + r.stderr);
    return runner.calls[0].options.timeoutMs;
  };
  strictEqual(await limit(["--enter", "--wait"]), Infinity);
  strictEqual(await limit(["--enter"]), (7 + 20 + 5) * 1000);
  strictEqual(await limit(["--enter", "--ready-timeout", "3"]), (7 + 3 + 5) * 1000);
  strictEqual(await limit(["--enter", "--ready-timeout=0"]), (7 + 0 + 5) * 1000);
  strictEqual(await limit(["--enter", "--confirm-timeout", "2"]), (7 + 20 + 2) * 1000);
  // --retry-enter presses Enter once more and waits for the receipt as long again.
  strictEqual(await limit(["--enter", "--retry-enter"]), (7 + 20 + 2 * 5) * 1000);
  // A status is bounded by the host timeout alone.
  const runner = recording({ stdout: '{"ok":true}\n' });
  await call(
    ["session", "status", "--session", "box1:brave-otter", "--json"],
    { ...s.env, LISA_HOST_TIMEOUT_SECONDS: "7" },
    runner,
  );
  strictEqual(runner.calls[0].options.timeoutMs, 7000);
});
