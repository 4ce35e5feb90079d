/**
 * Nested orchestration end to end: a session whose command runs `lisa session spawn` creates a
 * child linked to it; tree shows it; killing the parent kills the child (descendants first).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { shellJoin } from "../../src/base/shell_quote.ts";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";

interface Node {
  session: string;
  parentSession: string | null;
  children: Node[];
  active?: boolean;
  state?: string;
}

async function tree(world: World, args: string[] = []): Promise<Record<string, unknown>> {
  const r = await world.lisaInProcess(["session", "tree", "--json", ...args]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
  return r.json!;
}

async function hasSession(world: World, socket: string, session: string): Promise<boolean> {
  return (await world.tmux(socket, ["has-session", "-t", `=${session}`])).code === 0;
}

Deno.test("a session that runs lisa session spawn gets a child that tree shows under it, and kill takes both", async () => {
  const world = await makeWorld();
  try {
    const parent = "lisa-nest-parent";
    const child = "lisa-nest-child";
    const grandchild = "lisa-nest-grandchild";
    const spawnArgs = (name: string, command: string) => [
      ...LISA_ARGV,
      "session",
      "spawn",
      "--project-root",
      world.projectRoot,
      "--session",
      name,
      "--agent",
      "claude",
      "--mode",
      "exec",
      "--command",
      command,
      "--json",
    ];
    // The child spawns a grandchild, then both sleep; the parent's cwd is not the project root.
    const childCmd = `${shellJoin(spawnArgs(grandchild, "sleep 60"))} && sleep 60`;
    const parentCmd = `cd / && ${shellJoin(spawnArgs(child, childCmd))} && sleep 60`;
    const spawned = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      parent,
      "--agent",
      "claude",
      "--mode",
      "exec",
      "--command",
      parentCmd,
      "--json",
    ]);
    strictEqual(spawned.code, 0, spawned.stdout + spawned.stderr);
    const socket = spawned.json!.socketPath as string;

    const shaped = await waitFor(async () => {
      const t = await tree(world);
      const roots = t.roots as Node[];
      const p = roots.find((r) => r.session === parent);
      const c = p?.children.find((n) => n.session === child);
      return c?.children.some((n) => n.session === grandchild) ? t : undefined;
    }, 30_000);
    ok(shaped, "tree never showed parent → child → grandchild");
    const roots = shaped.roots as Node[];
    strictEqual(roots.length, 1);
    const c = roots[0].children[0];
    strictEqual(c.parentSession, parent);
    strictEqual(c.children[0].parentSession, child);
    strictEqual(c.active, true);

    // Children share the parent's tmux server (one socket per project).
    ok(await hasSession(world, socket, child));
    ok(await hasSession(world, socket, grandchild));

    const killed = await world.lisaInProcess(["session", "kill", "--session", parent, "--json"]);
    strictEqual(killed.code, 0, killed.stdout + killed.stderr);
    deepStrictEqual(killed.json!.killed, [grandchild, child, parent]);
    for (const s of [parent, child, grandchild]) {
      strictEqual(await hasSession(world, socket, s), false);
    }
    const after = await tree(world);
    deepStrictEqual(after.roots, []);
  } finally {
    await world.dispose();
  }
});

Deno.test("a nested spawn from another directory still lands in the parent's project", async () => {
  const world = await makeWorld();
  try {
    // LISA_PROJECT_ROOT (set in every lisa session) routes the nested call, not the pane's cwd.
    const childCmd = `cd / && ${
      shellJoin([
        ...LISA_ARGV,
        "session",
        "spawn",
        "--session",
        "lisa-routed-child",
        "--agent",
        "claude",
        "--mode",
        "exec",
        "--command",
        "sleep 60",
      ])
    } && sleep 60`;
    const spawned = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      "lisa-routed-parent",
      "--agent",
      "claude",
      "--mode",
      "exec",
      "--command",
      childCmd,
      "--json",
    ]);
    strictEqual(spawned.code, 0, spawned.stdout + spawned.stderr);
    const found = await waitFor(async () => {
      const t = await tree(world, ["--flat"]);
      const rows = t.rows as { session: string; parentSession: string | null; depth: number }[];
      return rows.find((r) => r.session === "lisa-routed-child");
    }, 30_000);
    ok(found, "child never appeared in the parent's project tree");
    strictEqual(found.parentSession, "lisa-routed-parent");
    strictEqual(found.depth, 1);
  } finally {
    await world.dispose();
  }
});

Deno.test("detect-nested --json reports nestedDetection and the bypass spawn would add", async () => {
  const world = await makeWorld();
  try {
    const cases: [string, string, boolean][] = [
      ["Run ./lisa session spawn --agent codex", "prompt_contains_dot_slash_lisa", true],
      ["do not run ./lisa", "negated_mention", false],
      ["The string './lisa' appears in docs only.", "documentation_mention", false],
      ["Use lisa inside of lisa inside as well.", "no_nested_hint", false],
    ];
    for (const [prompt, reason, bypass] of cases) {
      const r = await world.lisa(["session", "detect-nested", "--prompt", prompt, "--json"]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
      const d = r.json!.nestedDetection as Record<string, unknown>;
      strictEqual(d.reason, reason, prompt);
      strictEqual(d.eligible, true);
      strictEqual(d.autoBypass, bypass);
      deepStrictEqual(
        r.json!.nestedBypass,
        bypass ? ["--dangerously-bypass-approvals-and-sandbox"] : [],
      );
    }
    const forced = await world.lisaInProcess([
      "session",
      "detect-nested",
      "--prompt",
      "plain",
      "--nested-policy",
      "force",
      "--json",
    ]);
    deepStrictEqual(forced.json!.nestedBypass, ["--dangerously-bypass-approvals-and-sandbox"]);
    const claude = await world.lisaInProcess([
      "session",
      "detect-nested",
      "--prompt",
      "Run ./lisa session spawn",
      "--agent",
      "claude",
      "--json",
    ]);
    strictEqual((claude.json!.nestedDetection as Record<string, unknown>).eligible, false);
    deepStrictEqual(claude.json!.nestedBypass, []);
  } finally {
    await world.dispose();
  }
});

Deno.test("spawn adds the codex bypass only for an instruction to run lisa, and shows it", async () => {
  const world = await makeWorld();
  try {
    const bypass = "--dangerously-bypass-approvals-and-sandbox";
    const dry = async (prompt: string, ...flags: string[]) => {
      const r = await world.lisaInProcess([
        "session",
        "spawn",
        "--agent",
        "codex",
        "--mode",
        "exec",
        "--prompt",
        prompt,
        "--dry-run",
        "--json",
        ...flags,
      ]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
      return r.json!;
    };
    const yes = await dry("Run ./lisa session spawn --agent claude for each subtask");
    deepStrictEqual(yes.nestedBypass, [bypass]);
    ok((yes.command as string).includes(bypass));
    strictEqual(
      (yes.nestedDetection as Record<string, unknown>).reason,
      "prompt_contains_dot_slash_lisa",
    );
    for (
      const prompt of [
        "do not run ./lisa",
        "never use ./lisa here",
        "The string './lisa' appears in docs only.",
      ]
    ) {
      const no = await dry(prompt);
      deepStrictEqual(no.nestedBypass, [], prompt);
      strictEqual((no.command as string).includes(bypass), false, prompt);
    }
    deepStrictEqual((await dry("plain", "--nested-policy", "force")).nestedBypass, [bypass]);
    deepStrictEqual((await dry("plain", "--nesting-intent", "nested")).nestedBypass, [bypass]);
    deepStrictEqual(
      (await dry(
        "Run ./lisa session spawn",
        "--nesting-intent",
        "neutral",
      )).nestedBypass,
      [],
    );
    deepStrictEqual(
      (await dry("Run ./lisa session spawn", "--nested-policy", "off")).nestedBypass,
      [],
    );

    // A real spawn records the bypass in its meta.
    const real = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      "lisa-nested-codex",
      "--agent",
      "codex",
      "--mode",
      "exec",
      "--prompt",
      "Use nested lisa sessions for the work",
      "--json",
    ]);
    strictEqual(real.code, 0, real.stdout + real.stderr);
    deepStrictEqual(real.json!.nestedBypass, [bypass]);
    const hash = real.json!.projectHash as string;
    const meta = JSON.parse(
      Deno.readTextFileSync(
        `${world.runtimeDir}/.lisa-${hash}-session-lisa-nested-codex-meta.json`,
      ),
    );
    deepStrictEqual(meta.nestedBypass, [bypass]);
  } finally {
    await world.dispose();
  }
});

/** A parent's command: spawns `child` (a `sleep 60` session) through lisa, then sleeps. */
function spawnsChild(child: string): string {
  return `${
    shellJoin([...LISA_ARGV, "session", "spawn", "--session", child, "--command", "sleep 60"])
  } && sleep 60`;
}

Deno.test("killing a session never takes the children of another project's session of the same name", async () => {
  const world = await makeWorld();
  try {
    const other = `${world.base}/other`;
    await Deno.mkdir(other);
    // Project "other" runs lisa-same, which spawns lisa-same-child (a real nested spawn).
    const childCmd = spawnsChild("lisa-same-child");
    const parent = await world.lisaInProcess(
      ["session", "spawn", "--session", "lisa-same", "--command", childCmd, "--json"],
      { cwd: other },
    );
    strictEqual(parent.code, 0, parent.stdout + parent.stderr);
    const otherSocket = parent.json!.socketPath as string;
    ok(
      await waitFor(() => hasSession(world, otherSocket, "lisa-same-child"), 30_000),
      "the nested child never started",
    );
    // This project has a session of the same name, with no child: killing it ends it alone.
    const mine = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      "lisa-same",
      "--command",
      "sleep 60",
      "--json",
    ]);
    strictEqual(mine.code, 0, mine.stdout + mine.stderr);
    const r = await world.lisaInProcess(["session", "kill", "--session", "lisa-same", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    deepStrictEqual(r.json!.killed, ["lisa-same"]);
    ok(await hasSession(world, otherSocket, "lisa-same-child"), "the other project's child died");
    ok(await hasSession(world, otherSocket, "lisa-same"));
    // Without its meta (removed, unreadable) the run id comes from its tmux session: the same.
    const again = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      "lisa-same",
      "--command",
      "sleep 60",
      "--json",
    ]);
    strictEqual(again.code, 0, again.stdout + again.stderr);
    const hash = again.json!.projectHash as string;
    Deno.removeSync(`${world.runtimeDir}/.lisa-${hash}-session-lisa-same-meta.json`);
    const r2 = await world.lisaInProcess(["session", "kill", "--session", "lisa-same", "--json"]);
    strictEqual(r2.code, 0, r2.stdout + r2.stderr);
    deepStrictEqual(r2.json!.killed, ["lisa-same"]);
    ok(await hasSession(world, otherSocket, "lisa-same-child"), "the other project's child died");
    // Killing the other project's lisa-same still takes its child first.
    const k = await world.lisaInProcess(["session", "kill", "--session", "lisa-same", "--json"], {
      cwd: other,
    });
    strictEqual(k.code, 0, k.stdout + k.stderr);
    deepStrictEqual(k.json!.killed, ["lisa-same-child", "lisa-same"]);
  } finally {
    await world.dispose();
  }
});

Deno.test("kill-all ends a parent and its nested child once each, the child first", async () => {
  const world = await makeWorld();
  try {
    const childCmd = spawnsChild("lisa-nest-child");
    const parent = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      "lisa-nest",
      "--command",
      childCmd,
      "--json",
    ]);
    strictEqual(parent.code, 0, parent.stdout + parent.stderr);
    const socket = parent.json!.socketPath as string;
    ok(await waitFor(() => hasSession(world, socket, "lisa-nest-child"), 30_000));
    const r = await world.lisaInProcess(["session", "kill-all", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    deepStrictEqual(r.json!.killed, ["lisa-nest-child", "lisa-nest"]);
  } finally {
    await world.dispose();
  }
});
