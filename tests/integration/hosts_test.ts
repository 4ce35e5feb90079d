/**
 * Session verbs on another host (issue 24), through a real sshd on 127.0.0.1 and a second lisa
 * with its own runtime dir, sockets, HOME and history: spawn, status, capture, send, monitor,
 * exists and kill by `--host` and by `HOST:ALIAS`, each answer the remote lisa's document plus
 * `host`, exit codes passed through, nothing created on this machine; hostile text arriving
 * byte for byte with nothing run on either side, inline, from a file and from stdin.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { waitFor } from "../helpers/world.ts";
import { filesIn, hostsTest, withFleet } from "./hosts_helpers.ts";
import { call, startMcp } from "../helpers/mcp.ts";

hostsTest(
  "a session spawned with --host lives on that host: status, capture, send, monitor and kill by --host and host:alias",
  async () => {
    await withFleet({}, async ({ world, sshd }) => {
      const remote = sshd.remotes.get("box1")!;
      const spawned = await world.lisaInProcess([
        "session",
        "spawn",
        "--host",
        "box1",
        "--agent",
        "codex",
        "--json",
      ]);
      strictEqual(spawned.code, 0, spawned.stdout + spawned.stderr);
      strictEqual(spawned.json?.host, "box1");
      const session = String(spawned.json?.session);
      const alias = String(spawned.json?.alias);
      // It is the other lisa's: its project, its runtime dir; this machine has none of it.
      strictEqual(spawned.json?.projectRoot, remote.projectRoot);
      ok(filesIn(remote.runtimeDir).some((f) => f.includes(session)), "no meta on the host");
      deepStrictEqual(filesIn(world.runtimeDir).filter((f) => f.includes(session)), []);
      const local = await world.lisaInProcess(["session", "list", "--json"]);
      strictEqual(local.json?.count, 0, local.stdout);

      const status = await world.lisaInProcess([
        "session",
        "status",
        "--session",
        `box1:${alias}`,
        "--json",
      ]);
      strictEqual(status.code, 0, status.stderr);
      strictEqual(status.json?.host, "box1");
      strictEqual(status.json?.session, session);
      ok(status.json?.sessionState !== "not_found", status.stdout);

      const capture = (extra: string[]) =>
        world.lisaInProcess(["session", "capture", ...extra, "--json"]);
      const prompt = await waitFor(async () => {
        const r = await capture(["--host", "box1", "--session", alias]);
        return String(r.json?.capture ?? "").includes("fake codex") ? r : undefined;
      }, 30_000);
      ok(prompt, "the agent's prompt never showed");
      strictEqual(prompt.json?.host, "box1");

      const sent = await world.lisaInProcess([
        "session",
        "send",
        "--session",
        `box1:${alias}`,
        "--text",
        "hello there",
        "--enter",
        "--json",
      ]);
      strictEqual(sent.code, 0, sent.stdout + sent.stderr);
      strictEqual(sent.json?.host, "box1");
      const got = await waitFor(async () => {
        const r = await capture(["--session", `box1:${alias}`]);
        return String(r.json?.capture ?? "").includes("got: hello there");
      }, 30_000);
      ok(got, "the text never reached the agent on the host");

      const monitor = await world.lisaInProcess([
        "session",
        "monitor",
        "--session",
        `box1:${alias}`,
        "--max-polls",
        "1",
        "--poll-interval",
        "0",
        "--stream-json",
      ]);
      const lines = monitor.stdout.trim().split("\n").map((l) => JSON.parse(l));
      ok(lines.length >= 1 && lines.every((l) => l.host === "box1"), monitor.stdout);

      // Exit codes pass through: exists says 1 for a session the host does not have.
      const missing = await world.lisaInProcess([
        "session",
        "exists",
        "--host",
        "box1",
        "--session",
        "lisa-nosuch",
        "--json",
      ]);
      strictEqual(missing.code, 1, missing.stdout + missing.stderr);
      strictEqual(missing.json?.host, "box1");

      const killed = await world.lisaInProcess([
        "session",
        "kill",
        "--host",
        "box1",
        "--session",
        alias,
        "--json",
      ]);
      strictEqual(killed.code, 0, killed.stdout + killed.stderr);
      strictEqual(killed.json?.host, "box1");
      const after = await world.lisaInProcess(["session", "list", "--host", "box1", "--json"]);
      strictEqual(after.code, 0, after.stderr);
      strictEqual(after.json?.count, 0, after.stdout);
      strictEqual(after.json?.host, "box1");
    });
  },
);

const pwned = (dir: string, n: number) => `${dir}/PWNED-${n}`;

/** Text no shell may read: quotes, `$()`, backticks, a leading dash, newlines, non-ASCII. */
function hostile(dir: string): string {
  return `first "double" and 'single' \\'\n$HOME $(touch ${pwned(dir, 1)}) \`touch ${
    pwned(dir, 2)
  }\` \\ backslash\n-oProxyCommand=touch ${pwned(dir, 3)}; touch ${pwned(dir, 4)}\n` +
    `ñ 日本語 🚀 tab\there '; touch ${pwned(dir, 5)}; '\nlast line`;
}

hostsTest(
  "hostile text reaches the agent on the host byte for byte, inline, from a file and from stdin, and nothing runs",
  async () => {
    await withFleet({}, async ({ world, sshd }) => {
      const remote = sshd.remotes.get("box1")!;
      const record = `${remote.base}/recorded`;
      // The host's agent copies every byte it gets into a file (tests/fixtures/fake_agent.sh).
      const spawned = await world.lisaInProcess([
        "session",
        "spawn",
        "--host",
        "box1",
        "--agent",
        "claude",
        "--command",
        `FAKE_BEHAVIOR=record:${record} claude`,
        "--json",
      ]);
      strictEqual(spawned.code, 0, spawned.stdout + spawned.stderr);
      const target = `box1:${spawned.json?.alias}`;
      const ready = await waitFor(async () => {
        const r = await world.lisaInProcess(["session", "capture", "--session", target, "--json"]);
        return String(r.json?.capture ?? "").includes("recording");
      }, 30_000);
      ok(ready, "the recording agent never started");
      const text = hostile(world.base);
      // The recorder shows nothing of what it got: its sends wait for no receipt
      // (--confirm-timeout 0; receipts have tests of their own, receipt_test.ts).
      const paste = (t: string) => `\x1b[200~${t.replaceAll("\n", "\r")}\x1b[201~\r`;
      const recorded = async (expected: string) => {
        const got = await waitFor(() => {
          const now = readIf(record);
          return now === expected ? now : undefined;
        }, 30_000);
        strictEqual(readIf(record), expected);
        ok(got !== undefined);
      };

      const inline = await world.lisaInProcess([
        "session",
        "send",
        "--session",
        target,
        "--text",
        text,
        "--enter",
        "--confirm-timeout",
        "0",
        "--json",
      ]);
      strictEqual(inline.code, 0, inline.stdout + inline.stderr);
      strictEqual(inline.json?.textBytes, new TextEncoder().encode(text).length);
      let expected = paste(text);
      await recorded(expected);

      // A file on this machine (the host has no such file): its content goes over ssh's stdin.
      const file = `${world.base}/local-only.md`;
      const fileText = `${text}\nfrom a file`;
      Deno.writeTextFileSync(file, fileText);
      const fromFile = await world.lisaInProcess([
        "session",
        "send",
        "--session",
        target,
        "--text-file",
        file,
        "--enter",
        "--confirm-timeout",
        "0",
        "--json",
      ]);
      strictEqual(fromFile.code, 0, fromFile.stdout + fromFile.stderr);
      expected += paste(fileText);
      await recorded(expected);

      // stdin of this lisa (`--text -`) reaches the host's lisa as its stdin.
      const stdinText = `${text}\nfrom stdin`;
      const fromStdin = await world.lisa([
        "session",
        "send",
        "--session",
        target,
        "--text",
        "-",
        "--enter",
        "--confirm-timeout",
        "0",
        "--json",
      ], { stdin: stdinText });
      strictEqual(fromStdin.code, 0, fromStdin.stdout + fromStdin.stderr);
      strictEqual(fromStdin.json?.host, "box1");
      expected += paste(stdinText);
      await recorded(expected);

      for (let n = 1; n <= 5; n++) {
        strictEqual(readIf(pwned(world.base, n)), undefined, `PWNED-${n}`);
      }
    });
  },
);

hostsTest(
  "a hostile prompt reaches an exec agent on the host whole: inline, from a local file, from stdin",
  async () => {
    const seen = (base: string) => `${base}/prompt-seen`;
    await withFleet(
      { remoteEnv: ({ base }) => ({ FAKE_PROMPT_FILE: seen(base) }) },
      async (fleet) => {
        const { world, sshd } = fleet;
        const file = seen(sshd.remotes.get("box1")!.base);
        const text = hostile(world.base);
        const exec = ["session", "spawn", "--host", "box1", "--agent", "claude", "--mode", "exec"];
        const arrives = async (expected: string) => {
          const got = await waitFor(() => readIf(file) === expected, 30_000);
          strictEqual(readIf(file), expected);
          ok(got);
          Deno.removeSync(file);
        };
        const inline = await world.lisaInProcess([...exec, "--prompt", text, "--json"]);
        strictEqual(inline.code, 0, inline.stdout + inline.stderr);
        await arrives(text);
        const local = `${world.base}/task.md`;
        Deno.writeTextFileSync(local, `${text}\nfrom a file\n`);
        const fromFile = await world.lisaInProcess([...exec, "--prompt-file", local, "--json"]);
        strictEqual(fromFile.code, 0, fromFile.stdout + fromFile.stderr);
        await arrives(`${text}\nfrom a file\n`);
        const fromStdin = await world.lisa([...exec, "--prompt", "-", "--json"], {
          stdin: `${text}\nfrom stdin`,
        });
        strictEqual(fromStdin.code, 0, fromStdin.stdout + fromStdin.stderr);
        await arrives(`${text}\nfrom stdin`);
        for (let n = 1; n <= 5; n++) {
          strictEqual(readIf(pwned(world.base, n)), undefined, `PWNED-${n}`);
        }
      },
    );
  },
);

function readIf(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

hostsTest(
  "through lisa mcp, a tool call with host (or host:alias) runs on that host, never here",
  async () => {
    await withFleet({}, async ({ world, sshd }) => {
      const mcp = await startMcp(world);
      try {
        const spawned = await call(mcp, "spawn", { host: "box1", command: "sleep 300" });
        strictEqual(spawned.isError, false, JSON.stringify(spawned.doc));
        strictEqual(spawned.doc.host, "box1");
        strictEqual(spawned.doc.projectRoot, sshd.remotes.get("box1")!.projectRoot);
        const alias = String(spawned.doc.alias);
        const status = await call(mcp, "status", { session: `box1:${alias}` });
        strictEqual(status.doc.host, "box1", JSON.stringify(status.doc));
        strictEqual(status.doc.session, spawned.doc.session);
        ok(status.doc.sessionState !== "not_found", JSON.stringify(status.doc));
        const local = await call(mcp, "list", {});
        strictEqual(local.doc.count, 0, JSON.stringify(local.doc));
        const all = await call(mcp, "list", { allHosts: true });
        deepStrictEqual(all.doc.sessions, [`box1:${spawned.doc.session}`]);
        const killed = await call(mcp, "kill", { host: "box1", session: alias });
        strictEqual(killed.isError, false, JSON.stringify(killed.doc));
        strictEqual(killed.doc.host, "box1");
        const bad = await call(mcp, "status", { host: "nosuch", session: alias });
        strictEqual(bad.isError, true);
        strictEqual(bad.doc.errorCode, "invalid_host", JSON.stringify(bad.doc));
      } finally {
        await mcp.close();
      }
    });
  },
);
