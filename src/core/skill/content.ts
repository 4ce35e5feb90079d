/**
 * lisa's Agent Skill: the `SKILL.md` that `lisa skill install` writes where claude and codex read
 * skills. Both agents put the frontmatter's `description` into every request to their model (so
 * it says when to reach for lisa, under 1,024 characters) and read the body (`skill_body.md`,
 * checked against the command table by tests/cli/skill_text_test.ts) when the skill is used.
 *
 * The file lisa writes carries a mark: a comment line after the frontmatter with the SHA-256 of
 * the rest of the file. A file without the mark, or whose rest no longer hashes to it (a person
 * edited it), is not lisa's, and install refuses to overwrite it without `--force`.
 */
import body from "./skill_body.md" with { type: "text" };
import { LISA_VERSION } from "../../base/version.ts";

/** The skill's name (its folder's name too: `skills/lisa/SKILL.md`). */
export const SKILL_NAME = "lisa";

/** When an agent should use the skill: what its model sees of it before it is loaded. */
export const SKILL_DESCRIPTION = "Run other AI coding agents (claude, codex, or any command) " +
  "from the shell with the lisa CLI: start workers in tmux sessions (each in its own git " +
  "worktree), send them tasks and wait for their replies, watch many at once until one needs " +
  "you, answer their permission dialogs, read their output incrementally, review and merge " +
  "their work, and end them with everything they started. Use it when work should be split " +
  "across parallel agents, handed to a second agent (codex from claude, or the other way), run " +
  "unattended in the background, or when the user mentions lisa, agent sessions, workers, " +
  "spawning or orchestrating agents.";

/** The mark's line: `<!-- lisa skill: … sha256=<hex> … -->`, alone on its line. */
const MARK_LINE = /^<!-- lisa skill: .*\bsha256=([0-9a-f]{64})\b.* -->$/m;

/** The file without its mark: the frontmatter, then the body. */
function unmarked(): string {
  // JSON's string syntax is YAML's double-quoted scalar: any character of the text is safe.
  return `---\nname: ${SKILL_NAME}\ndescription: ${JSON.stringify(SKILL_DESCRIPTION)}\n---\n\n` +
    body;
}

/** SHA-256 of `text` (UTF-8) as lowercase hex. */
async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Where the mark goes: the line after the frontmatter's closing `---`. */
function markOffset(text: string): number {
  const close = text.indexOf("\n---\n", 4);
  return close < 0 ? 0 : close + "\n---\n".length;
}

/** The skill as this lisa writes it. */
export interface SkillFile {
  /** The whole file, mark included. */
  text: string;
  /** SHA-256 of the file without its mark line (what the mark records). */
  sha256: string;
}

/** The `SKILL.md` this lisa installs, with its mark. */
export async function skillFile(): Promise<SkillFile> {
  const plain = unmarked();
  const sha256 = await sha256Hex(plain);
  const at = markOffset(plain);
  const mark = `<!-- lisa skill: written by lisa ${LISA_VERSION} (lisa skill install), ` +
    `sha256=${sha256}. Edit it and lisa treats it as yours: install then needs --force. -->\n`;
  return { text: plain.slice(0, at) + mark + plain.slice(at), sha256 };
}

/** Whose a `SKILL.md` is, by its mark. */
export type Ownership =
  /** lisa's mark, and the rest of the file still hashes to it. */
  | "lisa"
  /** lisa's mark, but the file changed since: someone edited it. */
  | "modified"
  /** No mark: lisa did not write it. */
  | "foreign";

/**
 * Who owns `text` (a SKILL.md's content): lisa when its mark's hash matches the rest of the
 * file, `modified` when the mark is there but the rest changed, `foreign` without a mark.
 */
export async function ownershipOf(text: string): Promise<{ owner: Ownership; sha256?: string }> {
  const m = MARK_LINE.exec(text);
  if (m === null) return { owner: "foreign" };
  const rest = text.slice(0, m.index) + text.slice(m.index + m[0].length + 1);
  const actual = await sha256Hex(rest);
  return actual === m[1] ? { owner: "lisa", sha256: m[1] } : { owner: "modified" };
}
