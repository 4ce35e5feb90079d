import { ok } from "node:assert/strict";
import { fakeDeps } from "../helpers/fake_deps.ts";
import { VARIABLES } from "../../src/base/config.ts";
import { buildProgram } from "../../src/cli/run.ts";
import { REPO_ROOT } from "../helpers/world.ts";

const readme = Deno.readTextFileSync(`${REPO_ROOT}/README.md`);

function program() {
  return buildProgram({ deps: fakeDeps(), exitCode: 0 });
}

Deno.test("the README's env table lists every variable lisa reads", () => {
  const rows = readme.split("\n").filter((l) => l.startsWith("|"));
  for (const v of VARIABLES) {
    ok(rows.some((r) => r.includes(`\`${v.name}\``)), `${v.name} missing`);
  }
});

Deno.test("the README's command map names every command and session verb", () => {
  const top = program();
  for (const cmd of top.commands) {
    if (cmd.name() === "session") {
      for (const verb of cmd.commands) {
        ok(readme.includes(`lisa session ${verb.name()}`), `session ${verb.name()} missing`);
      }
    } else {
      ok(readme.includes(`lisa ${cmd.name()}`), `${cmd.name()} missing`);
    }
  }
});

Deno.test("the README documents every error code thrown in src/", () => {
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
      }
    }
  };
  walk(`${REPO_ROOT}/src`);
  codes.delete("not_implemented");
  for (const code of codes) ok(readme.includes(`\`${code}\``), `error code ${code} missing`);
});
