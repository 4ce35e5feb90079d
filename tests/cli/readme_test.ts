/**
 * The README tells the truth about the command line: its command map and error-code table are
 * the ones generated from the command table and `base/error_codes.ts`, every error code thrown
 * in `src/` is in that table, and every variable lisa reads is documented.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { VARIABLES } from "../../src/base/config.ts";
import { allErrorCodes } from "../../src/base/error_codes.ts";
import { withGeneratedBlocks } from "../../src/cli/docs.ts";
import { REPO_ROOT } from "../helpers/world.ts";

const readme = Deno.readTextFileSync(`${REPO_ROOT}/README.md`);

Deno.test("the README's env table lists every variable lisa reads", () => {
  const rows = readme.split("\n").filter((l) => l.startsWith("|"));
  for (const v of VARIABLES) {
    ok(rows.some((r) => r.includes(`\`${v.name}\``)), `${v.name} missing`);
  }
});

Deno.test("the README's command map and error table are generated from the code (deno task docs)", () => {
  strictEqual(withGeneratedBlocks(readme), readme);
});

/** Error codes thrown anywhere in `src/`. */
function thrownCodes(): Set<string> {
  const codes = new Set<string>();
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) walk(path);
      else if (e.name.endsWith(".ts")) {
        const text = Deno.readTextFileSync(path);
        for (const m of text.matchAll(/new LisaError\(\s*"([a-z_]+)"/g)) codes.add(m[1]);
        const usage = /UsageError\(\s*(?:`[^`]*`|"[^"]*")\s*,\s*"([a-z_]+)"/gs;
        for (const m of text.matchAll(usage)) codes.add(m[1]);
        // spawn's failure helper: failed("spawn_…_error", …)
        for (const m of text.matchAll(/failed\(\s*"([a-z_]+)"/g)) codes.add(m[1]);
        for (const m of text.matchAll(/errorCode: "([a-z_]+)"/g)) codes.add(m[1]);
        for (const m of text.matchAll(/super\(\s*"([a-z_]+)"/g)) codes.add(m[1]);
        for (const m of text.matchAll(/code: "([a-z_]+)"/g)) codes.add(m[1]);
      }
    }
  };
  walk(`${REPO_ROOT}/src`);
  return codes;
}

Deno.test("every error code thrown in src/ is in the one table of error codes", () => {
  const table = allErrorCodes();
  const missing = [...thrownCodes()].filter((c) => !table.has(c)).sort();
  deepStrictEqual(missing, []);
});
