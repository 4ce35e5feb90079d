/**
 * Help strings tell the truth about defaults (issue 9, defect 10h): every `--project-root`
 * resolves through `resolveProject`, where `LISA_PROJECT_ROOT` comes before cwd.
 */
import { ok } from "node:assert/strict";
import type { Command } from "@commander-js/extra-typings";
import { buildProgram } from "../../src/cli/run.ts";
import { fakeDeps } from "../helpers/fake_deps.ts";

function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap((c) => allCommands(c as Command))];
}

Deno.test("every --project-root help names LISA_PROJECT_ROOT before cwd", () => {
  const program = buildProgram({ deps: fakeDeps(), exitCode: 0 });
  let seen = 0;
  for (const cmd of allCommands(program as unknown as Command)) {
    for (const opt of cmd.options) {
      if (opt.long !== "--project-root") continue;
      seen++;
      ok(
        /default: LISA_PROJECT_ROOT, else cwd/.test(opt.description),
        `${cmd.name()}: ${opt.description}`,
      );
    }
  }
  ok(seen >= 15, `only ${seen} --project-root flags found`);
});
