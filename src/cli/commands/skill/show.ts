/** `lisa skill show`: the SKILL.md that `skill install` writes. */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { skillShowFlags } from "./show_spec.ts";
import { SKILL_DESCRIPTION, SKILL_NAME, skillFile } from "../../../core/skill/mod.ts";

/** Prints the skill as install writes it (with `--json`: also its name, description, size). */
export default async function show(
  this: LisaContext,
  flags: FlagsOf<typeof skillShowFlags>,
): Promise<void> {
  const { text, sha256 } = await skillFile();
  if (!flags.json) {
    this.deps.io.out(text);
    return;
  }
  printJson(this.deps.io, {
    name: SKILL_NAME,
    description: SKILL_DESCRIPTION,
    descriptionChars: SKILL_DESCRIPTION.length,
    lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0),
    sha256,
    content: text,
  });
}
