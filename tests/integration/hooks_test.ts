/**
 * Agent hooks end to end with the fake agents, which honour `--settings` (claude) and
 * `-c notify=[…]` (codex) like the real CLIs: lisa injects them at spawn, the fakes fire them at
 * the right moments, `lisa hook` records them, and status reads them.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";
import {
  artifact,
  artifactsOf,
  endStray,
  paneText,
  readIf,
  spawn,
  type Spawned,
  waitDone,
  waitPane,
} from "./lifecycle_helpers.ts";
import { status, statusUntil } from "./status_helpers.ts";

type HookLine = Record<string, unknown> & { event: string; runId: string };

function hookLines(world: World, s: Spawned): HookLine[] {
  const text = readIf(artifact(world, s, "hooks.jsonl")) ?? "";
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** Waits until the session's hook file holds `event` (of this run); returns its records. */
async function waitHook(world: World, s: Spawned, event: string): Promise<HookLine[]> {
  const lines = await waitFor(() => {
    const l = hookLines(world, s);
    return l.some((r) => r.event === event && r.runId === s.runId) ? l : undefined;
  }, 30_000);
  if (lines === undefined) {
    throw new Error(
      `no ${event} hook for ${s.session}: ${JSON.stringify(hookLines(world, s))}\n${await paneText(
        world,
        s,
      )}`,
    );
  }
  return lines;
}

function readMeta(world: World, s: Spawned): Record<string, unknown> {
  return JSON.parse(readIf(artifact(world, s, "meta.json")) ?? "{}");
}

async function send(world: World, s: Spawned, text: string): Promise<void> {
  const r = await world.lisaInProcess([
    "session",
    "send",
    "--session",
    s.session,
    "--text",
    text,
    "--enter",
    "--json",
  ]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
}

Deno.test("spawn gives claude --settings hooks and a --session-id recorded in meta", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    ok(s.command.includes("--settings"), s.command);
    ok(s.command.includes("--session-id"), s.command);
    const meta = readMeta(world, s);
    strictEqual(meta.hooks, true);
    ok(/^[0-9a-f-]{36}$/.test(String(meta.agentSessionId)), `id ${meta.agentSessionId}`);
    const lines = await waitHook(world, s, "SessionStart");
    const start = lines.find((r) => r.event === "SessionStart")!;
    strictEqual(start.agentSessionId, meta.agentSessionId);
    strictEqual(start.agent, "claude");
    const report = await statusUntil(
      world,
      s.session,
      (r) => (r.signals.hooks as { active?: boolean } | null)?.active === true,
    );
    strictEqual((report.signals.hooks as { pending: unknown }).pending, null);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("claude hooks fire per turn: prompt, then Stop makes it waiting_input", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    await waitHook(world, s, "SessionStart");
    await waitPane(world, s, "> ");
    await send(world, s, "hello there");
    const lines = await waitHook(world, s, "Stop");
    const events = lines.filter((r) => r.runId === s.runId).map((r) => r.event);
    deepStrictEqual(events, ["SessionStart", "UserPromptSubmit", "Stop"]);
    strictEqual(lines[1].preview, "hello there");
    const report = await statusUntil(world, s.session, (r) => r.sessionState === "waiting_input");
    strictEqual(report.waitingFor, "input");
    // lisa's hook never prints: the fake would show it on screen.
    ok(!(await paneText(world, s)).includes("fake: hook stdout"));
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a pending claude permission prompt is waiting_input/permission until answered", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude", "--no-dangerously-skip-permissions"], {
      FAKE_BEHAVIOR: "idle",
      FAKE_PERMISSION: "1",
    });
    await waitHook(world, s, "SessionStart");
    await waitPane(world, s, "> ");
    await send(world, s, "make a file");
    const lines = await waitHook(world, s, "Notification");
    ok(lines.some((r) => r.event === "PermissionRequest"));
    strictEqual(
      lines.find((r) => r.event === "Notification")?.notificationType,
      "permission_prompt",
    );
    const waiting = await statusUntil(
      world,
      s.session,
      (r) => r.sessionState === "waiting_input" && r.waitingFor === "permission",
    );
    strictEqual(waiting.classificationReason, "hook:permission");
    // Text would answer the dialog by accident: refused, nothing typed (issue 13).
    const refused = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "1",
      "--enter",
      "--json",
    ]);
    strictEqual(refused.code, 1, refused.stdout);
    strictEqual(refused.json?.errorCode, "agent_waiting_permission");
    // Had anything been typed, the fake would have answered and cleared its dialog.
    await new Promise((r) => setTimeout(r, 500));
    ok((await paneText(world, s)).includes("Do you want to proceed?"), "the dialog is still up");
    ok(!hookLines(world, s).some((r) => r.event === "PostToolUse"));
    // Keys are how a dialog is answered.
    const keys = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--keys",
      "1 Enter",
      "--json",
    ]);
    strictEqual(keys.code, 0, keys.stdout + keys.stderr);
    await waitHook(world, s, "Stop");
    ok(hookLines(world, s).some((r) => r.event === "PostToolUse"));
    const done = await statusUntil(
      world,
      s.session,
      (r) => r.sessionState === "waiting_input" && r.waitingFor === "input",
    );
    strictEqual(done.classificationReason, "hook:turn_done");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("claude exec fires SessionStart, UserPromptSubmit, Stop and SessionEnd", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude", "--mode", "exec", "--prompt", "go"]);
    strictEqual(await waitDone(world, s), `${s.runId}:0`);
    const events = (await waitHook(world, s, "SessionEnd")).map((r) => r.event);
    deepStrictEqual(events, ["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"]);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("codex's notify records each turn and chains to the user's own notify", async () => {
  const world = await makeWorld();
  try {
    const codexHome = `${world.home}/.codex`;
    const userLog = `${world.base}/user-notify.log`;
    Deno.mkdirSync(codexHome);
    const script = `printf '%s\\n' "$1" >> '${userLog}'`;
    Deno.writeTextFileSync(
      `${codexHome}/config.toml`,
      `notify = ["sh", "-c", ${JSON.stringify(script)}, "sh"]\n`,
    );
    const s = await spawn(world, ["--agent", "codex", "--prompt", "first"], {
      FAKE_BEHAVIOR: "idle",
      CODEX_HOME: codexHome,
    });
    ok(s.command.includes("notify="), s.command);
    ok(s.command.includes("--chain"), s.command);
    await waitHook(world, s, "agent-turn-complete");
    const report = await statusUntil(world, s.session, (r) => r.sessionState === "waiting_input");
    strictEqual(report.waitingFor, "input");
    const chained = await waitFor(() => readIf(userLog), 10_000);
    ok(chained?.includes('"agent-turn-complete"'), `user notify log: ${chained}`);
    await waitPane(world, s, "> ");
    await send(world, s, "second");
    const turns = await waitFor(() => {
      const t = hookLines(world, s).filter((r) => r.event === "agent-turn-complete");
      return t.length >= 2 ? t : undefined;
    }, 30_000);
    strictEqual(turns?.[1].preview, "fake reply");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("LISA_HOOKS=off and --no-hooks inject nothing", async () => {
  const world = await makeWorld();
  try {
    const off = await spawn(world, ["--agent", "claude", "--mode", "exec", "--prompt", "x"], {
      LISA_HOOKS: "off",
    });
    const flag = await spawn(world, ["--agent", "codex", "--no-hooks"], { FAKE_BEHAVIOR: "idle" });
    for (const s of [off, flag]) {
      ok(!s.command.includes("--settings") && !s.command.includes("notify="), s.command);
      strictEqual(readMeta(world, s).hooks, false);
      strictEqual(readMeta(world, s).agentSessionId, null);
    }
    await waitDone(world, off);
    strictEqual(readIf(artifact(world, off, "hooks.jsonl")), undefined);
    const r = await status(world, flag.session);
    strictEqual(r.signals.hooks, null);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("kill removes the hook file and a late hook call does not bring it back", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    await waitHook(world, s, "SessionStart");
    const killed = await world.lisaInProcess(["session", "kill", "--session", s.session, "--json"]);
    strictEqual(killed.code, 0, killed.stdout + killed.stderr);
    // claude fires SessionEnd while it shuts down, possibly after kill removed the artifacts.
    const late = await new Deno.Command(LISA_ARGV[0], {
      args: [...LISA_ARGV.slice(1), "hook", "claude"],
      env: { LISA_HOOK_FILE: artifact(world, s, "hooks.jsonl"), LISA_RUN_ID: s.runId },
      stdin: "piped",
      stdout: "piped",
    }).spawn();
    const writer = late.stdin.getWriter();
    await writer.write(new TextEncoder().encode(`{"hook_event_name":"SessionEnd"}`));
    await writer.close();
    const out = await late.output();
    strictEqual(out.code, 0);
    deepStrictEqual(artifactsOf(world, s.session).filter((n) => n.includes("hooks")), []);
  } finally {
    await endStray();
    await world.dispose();
  }
});

/** The hook events of the `--settings` lisa gave the fake claude (from its argv). */
function settingsEvents(argsFile: string): string[] {
  const args = Deno.readTextFileSync(argsFile).split("\0");
  return Object.keys(JSON.parse(args[args.indexOf("--settings") + 1]).hooks).sort();
}

Deno.test(
  "claude gets only the hook events its version knows, so an older one keeps its hooks",
  async () => {
    // The version is remembered per install in the runtime dir: one world per version.
    const world = await makeWorld();
    const other = await makeWorld();
    try {
      // An older claude skips the whole --settings over one event it does not know (StopFailure
      // came in 2.1.78): spawned with the right events, its hooks still fire.
      const oldArgs = `${world.base}/old-args`;
      const old = await spawn(world, ["--agent", "claude"], {
        FAKE_CLAUDE_VERSION: "2.1.50",
        FAKE_ARGS_FILE: oldArgs,
      });
      strictEqual(old.agentVersion, "2.1.50");
      await waitHook(world, old, "SessionStart");
      const oldEvents = settingsEvents(oldArgs);
      for (const e of ["StopFailure", "PostCompact", "PreCompact", "Elicitation"]) {
        ok(!oldEvents.includes(e), `${e} given to 2.1.50: ${oldEvents}`);
      }
      ok(oldEvents.includes("SubagentStart") && oldEvents.includes("Stop"), `${oldEvents}`);
      ok(!(await paneText(world, old)).includes("Settings Error"));
      strictEqual(readMeta(world, old).agentVersion, "2.1.50");
      // The current claude gets the events that keep background work and compaction visible.
      const newArgs = `${other.base}/new-args`;
      const current = await spawn(other, ["--agent", "claude"], { FAKE_ARGS_FILE: newArgs });
      strictEqual(current.agentVersion, "2.1.197");
      await waitHook(other, current, "SessionStart");
      const events = settingsEvents(newArgs);
      for (
        const e of ["SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "Elicitation"]
      ) {
        ok(events.includes(e), `${e} missing: ${events}`);
      }
      ok(!(await paneText(other, current)).includes("Settings Warning"));
    } finally {
      await endStray();
      await world.dispose();
      await other.dispose();
    }
  },
);
