/**
 * lisa's SKILL.md: its frontmatter as the agents parse it, the description's limits, and the
 * mark that tells lisa's own file from a foreign or edited one.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  ownershipOf,
  SKILL_DESCRIPTION,
  SKILL_NAME,
  skillFile,
} from "../../../../src/core/skill/content.ts";

/** The frontmatter's `key: value` lines, the values read as YAML scalars (plain or JSON-quoted). */
function frontmatter(text: string): Record<string, string> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  ok(m, "the file starts with a frontmatter block");
  const out: Record<string, string> = {};
  for (const line of m[1].split("\n")) {
    const i = line.indexOf(": ");
    const value = line.slice(i + 2);
    out[line.slice(0, i)] = value.startsWith('"') ? JSON.parse(value) : value;
  }
  return out;
}

Deno.test("the skill's frontmatter names it lisa and carries the description, and nothing else", async () => {
  const { text } = await skillFile();
  deepStrictEqual(frontmatter(text), { name: "lisa", description: SKILL_DESCRIPTION });
  strictEqual(SKILL_NAME, "lisa");
});

Deno.test("the description is one line under 1,024 characters that says when to use lisa", () => {
  ok(SKILL_DESCRIPTION.length < 1024, `${SKILL_DESCRIPTION.length} characters`);
  ok(SKILL_DESCRIPTION.length > 200, "long enough to say what lisa does and when");
  ok(!/[\n\r]/.test(SKILL_DESCRIPTION));
  ok(/\bUse it when\b/.test(SKILL_DESCRIPTION), "it says when to use it");
  for (const word of ["claude", "codex", "parallel", "worktree", "permission"]) {
    ok(SKILL_DESCRIPTION.includes(word), `mentions ${word}`);
  }
});

Deno.test("lisa's own file is lisa's; the mark comes right after the frontmatter", async () => {
  const { text, sha256 } = await skillFile();
  deepStrictEqual(await ownershipOf(text), { owner: "lisa", sha256 });
  const afterFrontmatter = text.split("\n---\n")[1].split("\n")[0];
  ok(afterFrontmatter.startsWith("<!-- lisa skill: "), afterFrontmatter);
  ok(afterFrontmatter.includes(`sha256=${sha256}`));
  // Building it twice gives the same bytes (install compares them to tell current from outdated).
  strictEqual((await skillFile()).text, text);
});

Deno.test("any edit outside the mark, or a changed hash, makes the file modified", async () => {
  const { text } = await skillFile();
  const edits = [
    text.replace("# lisa: run other coding agents", "# lisa: run other agents"),
    text + "\nmy own notes\n",
    text.replace("name: lisa", "name: lisa2"),
    text.replace(/sha256=[0-9a-f]{4}/, "sha256=0000"),
  ];
  for (const edited of edits) {
    ok(edited !== text);
    strictEqual((await ownershipOf(edited)).owner, "modified");
  }
});

Deno.test("a file without lisa's mark is foreign", async () => {
  const { text } = await skillFile();
  const unmarked = text.split("\n").filter((l) => !l.startsWith("<!-- lisa skill: ")).join("\n");
  strictEqual((await ownershipOf(unmarked)).owner, "foreign");
  strictEqual((await ownershipOf("---\nname: lisa\ndescription: mine\n---\n")).owner, "foreign");
  strictEqual((await ownershipOf("")).owner, "foreign");
});
