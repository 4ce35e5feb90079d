/** Where each agent reads lisa's skill, per scope and environment. */
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { LisaError } from "../../../../src/base/errors.ts";
import { skillTarget } from "../../../../src/core/skill/targets.ts";

const HOME = { HOME: "/home/u" };

Deno.test("user scope: claude under ~/.claude/skills, codex under ~/.agents/skills", () => {
  const claude = skillTarget("claude", "user", HOME);
  strictEqual(claude.path, "/home/u/.claude/skills/lisa/SKILL.md");
  strictEqual(claude.dir, "/home/u/.claude/skills/lisa");
  strictEqual(claude.base, "/home/u");
  deepStrictEqual(claude.alsoRead, []);
  const codex = skillTarget("codex", "user", HOME);
  strictEqual(codex.path, "/home/u/.agents/skills/lisa/SKILL.md");
  // codex also reads $CODEX_HOME/skills (default ~/.codex/skills): reported, never written.
  deepStrictEqual(codex.alsoRead, ["/home/u/.codex/skills/lisa/SKILL.md"]);
});

Deno.test("user scope follows CLAUDE_CONFIG_DIR for claude and CODEX_HOME for codex's other folder", () => {
  const env = { HOME: "/home/u/", CLAUDE_CONFIG_DIR: "/cfg/claude/", CODEX_HOME: "/cfg/codex" };
  strictEqual(skillTarget("claude", "user", env).path, "/cfg/claude/skills/lisa/SKILL.md");
  strictEqual(skillTarget("claude", "user", env).base, "/cfg/claude");
  const codex = skillTarget("codex", "user", env);
  strictEqual(codex.path, "/home/u/.agents/skills/lisa/SKILL.md");
  deepStrictEqual(codex.alsoRead, ["/cfg/codex/skills/lisa/SKILL.md"]);
});

Deno.test("project scope: <root>/.claude/skills and <root>/.agents/skills", () => {
  strictEqual(
    skillTarget("claude", "project", HOME, "/src/app").path,
    "/src/app/.claude/skills/lisa/SKILL.md",
  );
  const codex = skillTarget("codex", "project", {}, "/src/app");
  strictEqual(codex.path, "/src/app/.agents/skills/lisa/SKILL.md");
  strictEqual(codex.base, "/src/app");
  deepStrictEqual(codex.alsoRead, ["/src/app/.codex/skills/lisa/SKILL.md"]);
});

Deno.test("user scope without an absolute HOME (or CLAUDE_CONFIG_DIR) is skill_path_invalid", () => {
  const invalid = (e: unknown) => e instanceof LisaError && e.code === "skill_path_invalid";
  throws(() => skillTarget("codex", "user", {}), invalid);
  throws(() => skillTarget("claude", "user", { HOME: "relative/home" }), invalid);
  throws(
    () => skillTarget("claude", "user", { HOME: "/home/u", CLAUDE_CONFIG_DIR: "cfg" }),
    invalid,
  );
  // The project scope needs no HOME.
  strictEqual(skillTarget("claude", "project", {}, "/p").path, "/p/.claude/skills/lisa/SKILL.md");
});
