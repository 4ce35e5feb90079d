/**
 * `lisa doctor` names what is actually wrong (issue 9, defect 10c): an unsafe runtime dir is
 * reported with its reason (symlink, foreign owner, group/other access, not a directory) in the
 * verdict line and in `--json` `problems`, never as a missing program.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import { ProgramNotFoundError } from "../../src/base/errors.ts";
import type { Runner, RunResult } from "../../src/base/runner.ts";
import { fakeDeps } from "../helpers/fake_deps.ts";

const UID = Deno.uid() ?? 0;
const WRONG_PATH = "lisa needs tmux and claude or codex on PATH";

/** Answers `tmux -V`, `claude --version`, `codex --version`; `missing` programs are absent. */
function tools(missing: string[] = []): Runner {
  return {
    run(argv): Promise<RunResult> {
      if (missing.includes(argv[0])) return Promise.reject(new ProgramNotFoundError(argv[0]));
      return Promise.resolve({ code: 0, success: true, stdout: `${argv[0]} 1.0\n`, stderr: "" });
    },
  };
}

async function doctor(runtimeDir: string, options: { uid?: number; json?: boolean } = {}) {
  const io = new MemoryIo();
  const deps = fakeDeps({
    env: { LISA_RUNTIME_DIR: runtimeDir },
    uid: options.uid ?? UID,
    runner: tools(),
    io,
  });
  const code = await main(options.json ? ["doctor", "--json"] : ["doctor"], deps);
  return { code, io };
}

function verdict(stdout: string): string {
  return stdout.trimEnd().split("\n").at(-1) ?? "";
}

Deno.test("doctor says which way the runtime dir is unsafe, in its verdict and in --json", async () => {
  const base = Deno.makeTempDirSync({ prefix: "lisa-doctor-" });
  try {
    const real = `${base}/real`;
    Deno.mkdirSync(real, { mode: 0o700 });
    Deno.chmodSync(real, 0o700);
    Deno.symlinkSync(real, `${base}/link`);
    Deno.mkdirSync(`${base}/open`);
    Deno.chmodSync(`${base}/open`, 0o755);
    Deno.writeTextFileSync(`${base}/file`, "");
    const cases: [string, { uid?: number }, RegExp][] = [
      [`${base}/link`, {}, /is a symlink/],
      [real, { uid: UID + 1 }, new RegExp(`owned by uid ${UID}, not ${UID + 1}`)],
      [`${base}/open`, {}, /mode 755 lets group\/other in/],
      [`${base}/file`, {}, /not a directory/],
    ];
    for (const [dir, opts, reason] of cases) {
      const text = await doctor(dir, opts);
      strictEqual(text.code, 1, dir);
      const line = verdict(text.io.stdout);
      ok(line.startsWith("not ok: "), line);
      ok(line.includes(dir) && reason.test(line), `${dir}: ${line}`);
      ok(!text.io.stdout.includes(WRONG_PATH), text.io.stdout);

      const json = await doctor(dir, { ...opts, json: true });
      const report = JSON.parse(json.io.stdout) as { ok: boolean; problems: string[] };
      strictEqual(report.ok, false);
      strictEqual(report.problems.length, 1, JSON.stringify(report.problems));
      ok(reason.test(report.problems[0]), report.problems[0]);
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("doctor with a safe runtime dir and every program says ok", async () => {
  const base = Deno.makeTempDirSync({ prefix: "lisa-doctor-" });
  try {
    const json = await doctor(`${base}/run`, { json: true });
    strictEqual(json.code, 0, json.io.stdout);
    deepStrictEqual(JSON.parse(json.io.stdout).problems, []);
    strictEqual(verdict((await doctor(`${base}/run`)).io.stdout), "ok");
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("doctor names missing programs, not the runtime dir", async () => {
  const base = Deno.makeTempDirSync({ prefix: "lisa-doctor-" });
  try {
    const io = new MemoryIo();
    const deps = fakeDeps({
      env: { LISA_RUNTIME_DIR: `${base}/run` },
      runner: tools(["tmux", "claude", "codex"]),
      io,
    });
    strictEqual(await main(["doctor"], deps), 1);
    strictEqual(
      verdict(io.stdout),
      "not ok: tmux is not on PATH; neither claude nor codex is on PATH",
    );
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("doctor names the hosts file's problems, and checks ssh when it lists hosts (issue 24)", async () => {
  const base = Deno.makeTempDirSync({ prefix: "lisa-doctor-" });
  try {
    const hosts = `${base}/hosts.json`;
    const run = async (missing: string[] = []) => {
      const io = new MemoryIo();
      const deps = fakeDeps({
        env: { LISA_RUNTIME_DIR: `${base}/run`, LISA_HOSTS_FILE: hosts },
        runner: tools(missing),
        io,
      });
      const code = await main(["doctor", "--json"], deps);
      return { code, report: JSON.parse(io.stdout) };
    };
    // No file: no hosts, nothing wrong.
    const none = await run();
    strictEqual(none.code, 0);
    deepStrictEqual(none.report.hosts, { path: hosts, exists: false, names: [], problems: [] });
    Deno.writeTextFileSync(
      hosts,
      JSON.stringify({ hosts: [{ name: "b", ssh: "-oProxyCommand=x" }] }),
    );
    Deno.chmodSync(hosts, 0o600);
    const broken = await run();
    strictEqual(broken.code, 1);
    ok(broken.report.problems.some((p: string) => p.includes(hosts) && p.includes('"ssh"')));
    Deno.writeTextFileSync(hosts, JSON.stringify({ hosts: [{ name: "b", ssh: "b" }] }));
    const good = await run();
    strictEqual(good.code, 0, JSON.stringify(good.report.problems));
    deepStrictEqual(good.report.hosts.names, ["b"]);
    ok(good.report.tools.some((t: { name: string }) => t.name === "ssh"));
    const noSsh = await run(["ssh"]);
    strictEqual(noSsh.code, 1);
    ok(noSsh.report.problems.some((p: string) => p.startsWith("ssh is not found")));
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("doctor says when the tmux socket dir is too long for a socket, and what to do", async () => {
  const base = Deno.makeTempDirSync({ prefix: "lisa-doctor-" });
  try {
    // A socket's path must fit sun_path (107 bytes on Linux, 103 on macOS); every spawn failed
    // with "File name too long" while doctor said ok.
    const deep = `${base}/${"d".repeat(100)}`;
    Deno.mkdirSync(deep, { mode: 0o700 });
    Deno.chmodSync(deep, 0o700);
    const io = new MemoryIo();
    const deps = fakeDeps({ env: { LISA_RUNTIME_DIR: deep }, uid: UID, runner: tools(), io });
    const code = await main(["doctor", "--json"], deps);
    strictEqual(code, 1, io.stdout);
    const problems = JSON.parse(io.stdout).problems as string[];
    ok(problems.some((p) => p.includes("LISA_TMUX_SOCKET_DIR") && p.includes(deep)), io.stdout);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
