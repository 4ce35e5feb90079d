/**
 * Session targets against real tmux: a name that is a prefix of another session's name
 * (`lisa-w-1` next to `lisa-w-10`, `lisa-w` next to `lisa-w-1`) never reaches that other
 * session. tmux 3.3a resolves `list-panes -s -t =NAME` by prefix (it takes a window target) and
 * `display-message` answers a missing target with empty fields instead of failing; every tmux
 * call lisa makes is checked here against both.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readPane } from "../../src/core/capture/capture.ts";
import { sessionRunId } from "../../src/core/kill/kill.ts";
import { SessionNotFoundError } from "../../src/base/errors.ts";
import { probePane } from "../../src/core/status/gather.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import { readStat } from "../../src/proc/table.ts";
import {
  hasSession,
  killSession,
  pasteText,
  sendKeys,
  sessionPanePids,
} from "../../src/tmux/sessions.ts";
import { paneTarget, Tmux } from "../../src/tmux/tmux.ts";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { endStray, spawn } from "./lifecycle_helpers.ts";
import { statusUntil } from "./status_helpers.ts";

function alive(pid: number): boolean {
  const s = readStat(pid);
  return s !== null && s.state !== "Z" && s.state !== "X";
}

Deno.test("a second kill of a name that prefixes another session is session_not_found and signals nothing", async () => {
  const world = await makeWorld();
  try {
    const one = await spawn(world, ["--session", "lisa-w-1", "--command", "sleep 900"]);
    const ten = await spawn(world, ["--session", "lisa-w-10", "--command", "sleep 901"]);
    const tmux = new Tmux(new DenoRunner(20_000), ten.socketPath);
    const tenPane = (await sessionPanePids(tmux, ten.session))!.panePids[0];
    const sleeper = await waitFor(() => {
      const kids = Deno.readTextFileSync(`/proc/${tenPane}/task/${tenPane}/children`);
      return kids.trim().split(/\s+/).map(Number).find((pid) => readStat(pid)?.name === "sleep");
    }, 30_000);
    ok(sleeper !== undefined, "lisa-w-10's sleep 901 never started");

    const first = await world.lisaInProcess([
      "session",
      "kill",
      "--session",
      one.session,
      "--json",
    ]);
    strictEqual(first.code, 0, first.stdout + first.stderr);
    deepStrictEqual(first.json?.killed, [one.session]);

    const second = await world.lisa(["session", "kill", "--session", one.session, "--json"]);
    strictEqual(second.code, 1, second.stdout + second.stderr);
    strictEqual(second.json?.ok, false);
    strictEqual(second.json?.errorCode, "session_not_found");
    deepStrictEqual(second.json?.killed, []);
    strictEqual((second.json?.processes as { signalled: number }).signalled, 0);
    const plain = await world.lisa(["session", "kill", "--session", one.session]);
    strictEqual(plain.code, 1);
    // Even with every trace of lisa-w-1 gone (its event log pruned), kill takes the full name
    // exactly: a name is never resolved as a prefix of lisa-w-10 (issue 11's resolve).
    for (const e of Deno.readDirSync(world.runtimeDir)) {
      if (e.name.includes("-session-lisa-w-1-")) Deno.removeSync(`${world.runtimeDir}/${e.name}`);
    }
    const never = await world.lisaInProcess([
      "session",
      "kill",
      "--session",
      one.session,
      "--json",
    ]);
    strictEqual(never.code, 1, never.stdout);
    strictEqual(never.json?.errorCode, "session_not_found");

    ok(alive(tenPane), "lisa-w-10's pane must still run");
    ok(alive(sleeper), "lisa-w-10's sleep 901 must still run");
    const report = await statusUntil(world, ten.session, (r) => r.sessionState !== "just_started");
    strictEqual(report.sessionState, "in_progress", JSON.stringify(report));
  } finally {
    await endStray();
    await world.dispose();
  }
});

/** A server on a private socket with `cat` panes named `names`. */
async function server(world: World, names: string[]): Promise<Tmux> {
  const socket = `${world.socketDir}/targets.sock`;
  for (const name of names) {
    const r = await world.tmux(socket, ["new-session", "-d", "-s", name, "-x", "80", "-y", "20"]);
    strictEqual(r.code, 0, r.stderr);
    await world.tmux(socket, ["set-environment", "-t", `=${name}:`, "LISA_RUN_ID", `run-${name}`]);
    await world.tmux(socket, ["send-keys", "-t", `=${name}:`, "exec cat", "Enter"]);
  }
  return new Tmux(new DenoRunner(20_000), socket);
}

async function paneOf(tmux: Tmux, session: string): Promise<string> {
  return (await readPane(tmux, session, "all", undefined)).text;
}

async function assertMissing(tmux: Tmux, missing: string, neighbour: string): Promise<void> {
  const what = `${missing} next to ${neighbour}`;
  strictEqual(await hasSession(tmux, missing), false, `has-session ${what}`);
  strictEqual(await sessionPanePids(tmux, missing), null, `list-panes ${what}`);
  strictEqual(await sessionRunId(tmux, missing), null, `show-environment ${what}`);
  strictEqual(
    (await probePane(tmux, missing, 10, undefined)).exists,
    false,
    `status probe ${what}`,
  );
  let thrown: unknown;
  try {
    await readPane(tmux, missing, "all", undefined);
  } catch (error) {
    thrown = error;
  }
  ok(thrown instanceof SessionNotFoundError, `capture ${what}: ${thrown}`);
  // The missing name with the neighbour's own window and pane ids is no pane either.
  const listed = await tmux.run([[
    "list-panes",
    "-t",
    `=${neighbour}:`,
    "-F",
    "#{window_id} #{pane_id}",
  ]]);
  const [windowId, paneId] = listed.stdout.trim().split(" ");
  for (const ids of [undefined, { windowId, paneId }]) {
    const target = paneTarget(missing, ids);
    strictEqual(await pasteText(tmux, target, "PASTED-HERE"), "absent", `paste ${what} ${target}`);
    strictEqual(await sendKeys(tmux, target, ["KEYS-HERE", "Enter"]), "absent", `keys ${what}`);
    strictEqual((await probePane(tmux, missing, 10, ids)).exists, false, `probe ${target}`);
  }
  strictEqual(await killSession(tmux, missing), false, `kill-session ${what}`);
  // The neighbour got nothing and is still there.
  strictEqual(await hasSession(tmux, neighbour), true, `${neighbour} survives`);
  const text = await paneOf(tmux, neighbour);
  ok(!text.includes("PASTED-HERE") && !text.includes("KEYS-HERE"), `${neighbour}: ${text}`);
}

Deno.test("every tmux call lisa makes treats a prefix of another session's name as missing", async () => {
  const world = await makeWorld();
  try {
    const tmux = await server(world, ["lisa-w-10"]);
    await assertMissing(tmux, "lisa-w-1", "lisa-w-10");
    // The exact names still resolve (the check above is not vacuous).
    strictEqual(await hasSession(tmux, "lisa-w-10"), true);
    strictEqual((await sessionPanePids(tmux, "lisa-w-10"))?.panePids.length, 1);
    strictEqual(await sessionRunId(tmux, "lisa-w-10"), "run-lisa-w-10");
    strictEqual((await probePane(tmux, "lisa-w-10", 10, undefined)).exists, true);

    // lisa-w next to lisa-w-1 (and lisa-w-10: an ambiguous prefix).
    const more = await server(world, ["lisa-w-1"]);
    await assertMissing(more, "lisa-w", "lisa-w-1");
    const exact = paneTarget("lisa-w-1", undefined);
    strictEqual(await sendKeys(more, exact, ["EXACT-KEYS"]), "sent");
    strictEqual(await pasteText(more, exact, "EXACT-PASTE"), "sent");
    ok(
      await waitFor(async () => {
        const t = await paneOf(more, "lisa-w-1");
        return t.includes("EXACT-KEYS") && t.includes("EXACT-PASTE");
      }, 10_000),
    );
    strictEqual(await killSession(more, "lisa-w-10"), true);
    strictEqual(await hasSession(more, "lisa-w-1"), true);
    await assertMissing(more, "lisa-w", "lisa-w-1");
  } finally {
    await world.dispose();
  }
});
