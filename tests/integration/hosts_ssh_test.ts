/**
 * How lisa uses OpenSSH (issue 24), against a real sshd: calls within a minute share one SSH
 * connection (sshd logs one accept) whose control socket is in lisa's private runtime dir, and
 * `lisa hosts list|check` report each host: reachable or not, its lisa's version and JSON
 * contract (`host_version_mismatch` for an older one), round-trip times.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { controlPathFor } from "../../src/core/hosts/mod.ts";
import { JSON_CONTRACT, LISA_VERSION } from "../../src/base/version.ts";
import { freePort } from "../helpers/sshd.ts";
import { hostsTest, withFleet } from "./hosts_helpers.ts";

hostsTest(
  "calls to one host within a minute share one SSH connection, kept in the private runtime dir",
  async () => {
    await withFleet({}, async ({ world, sshd }) => {
      const first = await world.lisaInProcess(["session", "list", "--host", "box1", "--json"]);
      strictEqual(first.code, 0, first.stdout + first.stderr);
      const second = await world.lisaInProcess(["session", "list", "--host", "box1", "--json"]);
      strictEqual(second.code, 0, second.stdout + second.stderr);
      const third = await world.lisa(["session", "list", "--host", "box1", "--json"]);
      strictEqual(third.code, 0, third.stdout + third.stderr);
      strictEqual(await sshd.accepts(), 1, await sshd.log());
      const socket = controlPathFor(world.runtimeDir, "box1")!;
      ok(socket.startsWith(`${world.runtimeDir}/ssh-`), socket);
      ok(new TextEncoder().encode(socket).length < 100, socket);
      strictEqual(Deno.lstatSync(socket).isSocket, true);
      const check = await sshd.client(["-O", "check", "-o", `ControlPath=${socket}`, "box1"]);
      strictEqual(check.code, 0, check.stderr);
      ok(/Master running/.test(check.stderr), check.stderr);
      // stop() ends the master (ssh -O exit): nothing of the test's ssh outlives it.
      await sshd.stop();
      const after = await sshd.client(["-O", "check", "-o", `ControlPath=${socket}`, "box1"]);
      ok(after.code !== 0, after.stderr);
    });
  },
);

hostsTest(
  "hosts check reports each host: reachable, its lisa's version and contract, round trips; an older lisa is a mismatch",
  async () => {
    const closed = freePort();
    await withFleet({
      env: { LISA_HOST_CONNECT_TIMEOUT_SECONDS: "2" },
      extraConfig: `Host dead\n  HostName 127.0.0.1\n  Port ${closed}\n`,
      extraHosts: [{ name: "dead", ssh: "dead" }],
    }, async ({ world, sshd }) => {
      // A lisa from before the JSON contract had a number.
      const old = `${world.base}/old-lisa`;
      Deno.writeTextFileSync(
        old,
        `#!/bin/sh\nprintf '%s\\n' '{"ok":true,"version":"0.0.9","commit":null,"deno":"2.0.0"}'\n`,
      );
      Deno.chmodSync(old, 0o755);
      const file = JSON.parse(Deno.readTextFileSync(sshd.hostsFile));
      file.hosts.push({ name: "old", ssh: "box1", lisa: old });
      Deno.writeTextFileSync(sshd.hostsFile, JSON.stringify(file));

      const list = await world.lisaInProcess(["hosts", "list", "--json"]);
      strictEqual(list.code, 0, list.stdout + list.stderr);
      deepStrictEqual((list.json?.hosts as { name: string }[]).map((h) => h.name), [
        "box1",
        "dead",
        "old",
      ]);
      const table = await world.lisaInProcess(["hosts", "list"]);
      ok(/^NAME\s+SSH\s+LISA/.test(table.stdout), table.stdout);

      const r = await world.lisaInProcess(["hosts", "check", "--json"]);
      strictEqual(r.code, 1, r.stdout + r.stderr);
      strictEqual(r.json?.ok, false);
      // Like every ok:false document, it has an errorCode to branch on: the first failing host's.
      strictEqual(r.json?.errorCode, "host_unreachable", r.stdout);
      ok(/2 of 3 host\(s\) failed: dead \(host_unreachable\), old/.test(String(r.json?.error)));
      const hosts = Object.fromEntries(
        (r.json?.hosts as Record<string, unknown>[]).map((h) => [h.name, h]),
      );
      strictEqual(hosts.box1.ok, true, JSON.stringify(hosts.box1));
      strictEqual(hosts.box1.version, LISA_VERSION);
      strictEqual(hosts.box1.jsonContract, JSON_CONTRACT);
      ok(typeof hosts.box1.rttMs === "number" && typeof hosts.box1.firstCallMs === "number");
      strictEqual(hosts.dead.ok, false);
      strictEqual(hosts.dead.reachable, false);
      strictEqual(hosts.dead.errorCode, "host_unreachable");
      strictEqual(hosts.old.ok, false);
      strictEqual(hosts.old.reachable, true);
      strictEqual(hosts.old.errorCode, "host_version_mismatch");
      strictEqual(hosts.old.version, "0.0.9");
      ok(/older/.test(String(hosts.old.error)), String(hosts.old.error));

      const text = await world.lisaInProcess(["hosts", "check"]);
      strictEqual(text.code, 1);
      ok(/box1\s+ok/.test(text.stdout) && /dead\s+unreachable/.test(text.stdout), text.stdout);
    });
  },
);
