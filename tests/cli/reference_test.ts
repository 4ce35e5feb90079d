/**
 * docs/reference.md tells the truth about the command line: it is the page generated from the
 * command table, the code's tables of states, exit and error codes and `base/config.ts` (with its
 * hand-written prose kept), every error code thrown in `src/` is in that table, and every
 * variable lisa reads is documented. (Moved from readme_test.ts when the README's command map,
 * error codes and environment table moved to the reference.)
 */
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { VARIABLES } from "../../src/base/config.ts";
import { allErrorCodes, ERROR_CODES } from "../../src/base/error_codes.ts";
import { SESSION_STATES } from "../../src/base/types.ts";
import { KeptProse } from "../../src/cli/docs.ts";
import { flagName, REFERENCE_PAGE, referencePage } from "../../src/cli/reference.ts";
import { EXIT_CODES, WAITING_FOR_MEANINGS } from "../../src/cli/reference_tables.ts";
import { VERBS } from "../../src/cli/verbs.ts";
import { REPO_ROOT } from "../helpers/world.ts";

const page = Deno.readTextFileSync(`${REPO_ROOT}/${REFERENCE_PAGE}`);

/** The part of the page from `heading` to the next heading of the same or a higher level. */
function section(heading: string): string {
  const at = page.indexOf(`\n${heading}\n`);
  ok(at >= 0, `no heading ${heading}`);
  const level = heading.indexOf(" ");
  const rest = page.slice(at + heading.length + 2);
  const next = rest.search(new RegExp(`^#{1,${level}} `, "m"));
  return next < 0 ? rest : rest.slice(0, next);
}

Deno.test("the reference's env table lists every variable lisa reads", () => {
  const rows = section("## Environment").split("\n").filter((l) => l.startsWith("|"));
  for (const v of VARIABLES) {
    ok(rows.some((r) => r.includes(`\`${v.name}\``)), `${v.name} missing`);
  }
});

Deno.test("the reference is generated from the code (deno task docs)", () => {
  strictEqual(referencePage(page), page);
});

Deno.test("the reference has a section for every verb, naming each of its flags", () => {
  for (const [route, spec] of Object.entries(VERBS)) {
    const text = section(`### \`lisa ${route}\``);
    for (const key of Object.keys(spec.flags)) {
      ok(text.includes(`\`${flagName(key)}`), `lisa ${route}: ${flagName(key)} missing`);
    }
  }
});

Deno.test("the reference lists every state, kind of waiting, exit code and error code", () => {
  const states = section("## States");
  for (const s of SESSION_STATES) ok(states.includes(`| \`${s}\` |`), s);
  for (const w of Object.keys(WAITING_FOR_MEANINGS)) ok(states.includes(`| \`${w}\` |`), w);
  const exits = section("## Exit codes");
  for (const e of EXIT_CODES) ok(exits.includes(`| \`${e.code}\` |`), String(e.code));
  const errors = section("## Error codes");
  for (const row of ERROR_CODES) for (const c of row.codes) ok(errors.includes(`\`${c}\``), c);
});

Deno.test("the generator keeps the hand-written prose blocks, and refuses to drop one", () => {
  const kept = referencePage(
    page.replace("<!-- prose:files:start -->\n", "<!-- prose:files:start -->\n\nA kept line.\n"),
  );
  ok(kept.includes("<!-- prose:files:start -->\n\nA kept line.\n"));
  // A block for a verb that does not exist has no place: the page is not written without it.
  const orphan =
    `${page}\n<!-- prose:session-nosuch:start -->\n\nlost\n\n<!-- prose:session-nosuch:end -->\n`;
  throws(() => referencePage(orphan), /no place for the prose block\(s\) session-nosuch/);
  const twice = "<!-- prose:a:start -->\nx\n<!-- prose:a:end -->\n".repeat(2);
  throws(() => new KeptProse(twice, "page"), /two prose blocks named a/);
  // A verb's block is placed under that verb, whatever place it was written in.
  const moved = referencePage(
    `<!-- prose:session-exists:start -->\n\nIts fields.\n\n<!-- prose:session-exists:end -->\n${page}`,
  );
  const exists = moved.slice(moved.indexOf("### `lisa session exists`"));
  ok(exists.slice(0, exists.indexOf("\n### ")).includes("Its fields."));
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
