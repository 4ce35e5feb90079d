/**
 * The spawn plan, without tmux: what a spawn would run, with which environment, in which
 * tmux invocation, and what meta it records.
 */
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { planSpawn } from "../../../../src/core/spawn/spawn_plan.ts";
import type { Project } from "../../../../src/core/session/project.ts";
import { loadConfig } from "../../../../src/base/config.ts";
import { fakeDeps } from "../../../helpers/fake_deps.ts";

const project: Project = {
  root: "/home/me/app",
  hash: "0123abcd",
  slug: "app",
  runtimeDir: "/run/lisa",
  socketPath: "/run/lisa/lisa-tmux-app-0123abcd.sock",
};

function deps(env: Record<string, string> = {}) {
  return fakeDeps({
    env,
    config: loadConfig(env, 0).config,
    now: () => new Date("2026-11-23T10:20:30.456Z"),
    selfCommand: ["/usr/bin/lisa"],
  });
}

Deno.test("an exec codex plan: name, command, LISA_* environment, tmux invocation, meta", () => {
  const plan = planSpawn(deps({ HOME: "/home/me" }), {
    agent: "codex",
    mode: "exec",
    explicitAgent: true,
    prompt: "fix the tests",
    project,
    width: 120,
    height: 40,
  });
  ok(/^lisa-app-261123-\d{6}-\d{9}-codex-exec$/.test(plan.session), plan.session);
  ok(plan.command.startsWith("codex exec "), plan.command);
  ok(plan.command.endsWith("'fix the tests'"), plan.command);
  strictEqual(plan.lisaEnv.LISA_SESSION_NAME, plan.session);
  strictEqual(plan.lisaEnv.LISA_RUN_ID, plan.runId);
  strictEqual(plan.lisaEnv.LISA_TMUX_SOCKET, project.socketPath);
  strictEqual(plan.lisaEnv.LISA_DONE_FILE, plan.paths.done);
  strictEqual(plan.script.callerEnv.HOME, "/home/me");
  ok(plan.scriptPath.startsWith(`${project.runtimeDir}/lisa-cmd-${project.hash}-`));
  const newSession = plan.tmuxCommands.find((c) => c[0] === "new-session")!;
  deepStrictEqual(newSession.slice(0, 11), [
    "new-session",
    "-d",
    // It prints the ids of its window and pane, which the meta keeps (see spawn.ts).
    "-P",
    "-F",
    "#{window_id} #{pane_id}",
    "-s",
    plan.session,
    "-x",
    "120",
    "-y",
    "40",
  ]);
  deepStrictEqual(newSession.slice(-2), ["bash", plan.scriptPath]);
  deepStrictEqual(plan.tmuxCommands.at(-1), ["has-session", "-t", `=${plan.session}:`]);
  deepStrictEqual(
    { ...plan.meta, agentSessionId: null },
    {
      session: plan.session,
      parentSession: null,
      agent: "codex",
      mode: "exec",
      projectRoot: project.root,
      projectHash: project.hash,
      socketPath: project.socketPath,
      startCmd: plan.command,
      prompt: "fix the tests",
      createdAt: "2026-11-23T10:20:30.456Z",
      runId: plan.runId,
      agentSessionId: null,
      hooks: true,
      nestedBypass: [],
      commandOnly: false,
    },
  );
});

Deno.test("a --command plan without --agent is command-only, with no hooks and no agent command", () => {
  const plan = planSpawn(deps(), {
    agent: "claude",
    mode: "interactive",
    explicitAgent: false,
    prompt: undefined,
    project,
    command: "make test",
    session: "lisa-tests",
  });
  strictEqual(plan.session, "lisa-tests");
  strictEqual(plan.command, "make test");
  deepStrictEqual(plan.script.command, { shell: "make test" });
  strictEqual(plan.commandOnly, true);
  strictEqual(plan.meta.hooks, false);
});

Deno.test("hooks off, a parent session, a bad custom name", () => {
  const nested = planSpawn(deps({ LISA_HOOKS: "off", LISA_SESSION_NAME: "lisa-parent" }), {
    agent: "claude",
    mode: "interactive",
    explicitAgent: true,
    prompt: "hi",
    project,
  });
  strictEqual(nested.meta.hooks, false);
  strictEqual(nested.parentSession, "lisa-parent");
  ok(!nested.command.includes("--settings"), nested.command);
  throws(
    () =>
      planSpawn(deps(), {
        agent: "claude",
        mode: "interactive",
        explicitAgent: true,
        prompt: undefined,
        project,
        session: "no-prefix",
      }),
    /lisa-/,
  );
});
