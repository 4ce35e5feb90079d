/**
 * Where each agent reads skills, as measured with claude 2.1.197 and codex 0.169 (a skill placed
 * in each candidate folder, the agent run against a local mock of its API, the request checked
 * for the skill's description; DESIGN §4.7):
 *
 * - claude: `$CLAUDE_CONFIG_DIR/skills/` when that is set, else `~/.claude/skills/` (user), and
 *   `.claude/skills/` of the working directory and of each directory above it (project).
 * - codex: `~/.agents/skills/` and `$CODEX_HOME/skills/` (default `~/.codex/skills/`) (user), and
 *   `.agents/skills/` and `.codex/skills/` of the working directory, and of each directory up to
 *   the repository's root inside a git repository (project).
 *
 * lisa writes one place per agent and scope: claude's folder, and codex's `.agents` folder (the
 * one the issue names and the Agent Skills convention shares). The other folder codex reads is
 * reported when it holds a `lisa` skill too, since codex then offers both.
 */
import type { Agent } from "../../base/types.ts";
import { LisaError } from "../../base/errors.ts";
import type { Env } from "../../base/config.ts";

/** user: every project (under HOME); project: one project's own folder. */
export type SkillScope = "user" | "project";

/** Where one agent reads the skill, for one scope. */
export interface SkillTarget {
  agent: Agent;
  scope: SkillScope;
  /** The folder lisa's checks start from: HOME, CLAUDE_CONFIG_DIR or the project root. */
  base: string;
  /** The skill's folder, `<base>/…/skills/lisa`. */
  dir: string;
  /** `<dir>/SKILL.md`. */
  path: string;
  /** Other `lisa/SKILL.md` files the same agent reads at this scope (lisa never writes them). */
  alsoRead: string[];
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

function target(
  agent: Agent,
  scope: SkillScope,
  base: string,
  rel: string,
  alsoRead: string[],
): SkillTarget {
  const dir = `${trimSlash(base)}/${rel}/lisa`;
  return { agent, scope, base: trimSlash(base), dir, path: `${dir}/SKILL.md`, alsoRead };
}

function noFolder(name: string, value: string | undefined, agent: Agent): LisaError {
  return new LisaError(
    "skill_path_invalid",
    `${name} is ${value ? `"${value}", not an absolute path` : "not set"}, so there is no user ` +
      `folder to install the skill into: set ${name} to one, or install it into a project ` +
      "with --scope project",
    { details: { agent, scope: "user" } },
  );
}

/**
 * The skill's target for `agent` at `scope`: `projectRoot` (canonical) for the project scope,
 * the environment's HOME (and CLAUDE_CONFIG_DIR, CODEX_HOME) for the user scope. Throws
 * `skill_path_invalid` when the user scope has no absolute HOME (or CLAUDE_CONFIG_DIR) to go under.
 */
export function skillTarget(
  agent: Agent,
  scope: SkillScope,
  env: Env,
  projectRoot?: string,
): SkillTarget {
  if (scope === "project") {
    if (projectRoot === undefined) throw new Error("skillTarget: project scope needs the root");
    return agent === "claude"
      ? target(agent, scope, projectRoot, ".claude/skills", [])
      : target(agent, scope, projectRoot, ".agents/skills", [
        `${trimSlash(projectRoot)}/.codex/skills/lisa/SKILL.md`,
      ]);
  }
  const claudeDir = env.CLAUDE_CONFIG_DIR;
  if (agent === "claude" && claudeDir) {
    if (!claudeDir.startsWith("/")) throw noFolder("CLAUDE_CONFIG_DIR", claudeDir, agent);
    return target(agent, scope, claudeDir, "skills", []);
  }
  const home = env.HOME;
  if (!home || !home.startsWith("/")) throw noFolder("HOME", home, agent);
  if (agent === "claude") return target(agent, scope, home, ".claude/skills", []);
  const codexHome = env.CODEX_HOME ? trimSlash(env.CODEX_HOME) : `${trimSlash(home)}/.codex`;
  return target(agent, scope, home, ".agents/skills", [`${codexHome}/skills/lisa/SKILL.md`]);
}
