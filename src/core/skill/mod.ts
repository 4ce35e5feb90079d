/**
 * The skill domain's face: the SKILL.md that teaches claude and codex to drive lisa
 * (`skill show`), and installing it where they read skills (`skill install`).
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts).
 */
export { SKILL_DESCRIPTION, SKILL_NAME, skillFile } from "./content.ts";
export { installSkill, type TargetReport } from "./install.ts";
