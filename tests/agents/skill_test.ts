/**
 * Real-agent tier, the skill: after `lisa skill install` into the tier's private HOME (or into
 * its project), the real claude's and the real codex's requests to the model (the local mock
 * records them) list lisa's skill with its whole description, as each lists its skills.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { SKILL_DESCRIPTION } from "../../src/core/skill/content.ts";
import type { RecordedRequest } from "./mock_api.ts";
import { kill, makeTier, monitor, named, screen, SKIP, spawn, type Tier } from "./tier.ts";

const opts = { ignore: SKIP, sanitizeOps: false, sanitizeResources: false };

/** Every string inside a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** True when a main request lists the skill as both agents list theirs: `- lisa: <description>`. */
function listsSkill(requests: RecordedRequest[]): boolean {
  return requests.some((r) =>
    r.kind === "main" && strings(r.body).some((s) => s.includes(`- lisa: ${SKILL_DESCRIPTION}`))
  );
}

/** Runs `agent` in exec mode through lisa (in the project) to completion; its requests. */
async function run(tier: Tier, agent: "claude" | "codex"): Promise<RecordedRequest[]> {
  const from = tier.mock.requests.length;
  const session = await spawn(tier, ["--agent", agent, "--mode", "exec", "--prompt", "say hi"]);
  try {
    const result = await monitor(tier, session, 90);
    strictEqual(
      result.json?.finalState,
      "completed",
      `${result.stdout} ${result.stderr}\n${await screen(tier, session)}`,
    );
  } finally {
    await kill(tier, session);
  }
  const requests = tier.mock.requests.slice(from);
  ok(requests.some((r) => r.kind === "main"), `${agent} called the mock`);
  return requests;
}

Deno.test(
  named("after skill install --agent all, claude's and codex's requests carry its description"),
  opts,
  async () => {
    const tier = await makeTier();
    try {
      const home = tier.world.home;
      const installed = await tier.lisa(["skill", "install", "--agent", "all", "--json"]);
      strictEqual(installed.code, 0, installed.stdout + installed.stderr);
      deepStrictEqual(
        (installed.json?.targets as { path: string; written: boolean }[]).map((t) => t.path),
        [`${home}/.claude/skills/lisa/SKILL.md`, `${home}/.agents/skills/lisa/SKILL.md`],
      );
      ok(listsSkill(await run(tier, "claude")), "claude's request lists lisa's skill");
      ok(listsSkill(await run(tier, "codex")), "codex's request lists lisa's skill");
    } finally {
      await tier.dispose();
    }
  },
);

Deno.test(
  named("after skill install --scope project, both agents working in the project see it"),
  opts,
  async () => {
    const tier = await makeTier();
    try {
      const installed = await tier.lisa(["skill", "install", "--scope", "project", "--json"]);
      strictEqual(installed.code, 0, installed.stdout + installed.stderr);
      deepStrictEqual(
        (installed.json?.targets as { path: string }[]).map((t) => t.path),
        [
          `${tier.projectRoot}/.claude/skills/lisa/SKILL.md`,
          `${tier.projectRoot}/.agents/skills/lisa/SKILL.md`,
        ],
      );
      // Nothing under HOME: what the agents list comes from the project's folders.
      for (const dir of [".claude/skills", ".agents/skills", ".codex/skills"]) {
        ok(!exists(`${tier.world.home}/${dir}/lisa`), `${dir}/lisa under HOME`);
      }
      ok(listsSkill(await run(tier, "claude")), "claude's request lists lisa's skill");
      ok(listsSkill(await run(tier, "codex")), "codex's request lists lisa's skill");
    } finally {
      await tier.dispose();
    }
  },
);

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
