/**
 * The status pre-parser reads the same flag specs as the command table and agrees with stricli
 * on everything it accepts; anything else goes to the full command line.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { preparse } from "../../src/cli/preparse.ts";
import { spawnFlags } from "../../src/cli/commands/session/spawn_spec.ts";
import { statusFlags } from "../../src/cli/commands/session/status_spec.ts";
import { main } from "../../src/cli/run.ts";
import { fakeDeps } from "../helpers/fake_deps.ts";
import { definedOnly } from "../helpers/cli_call.ts";

/** The flags stricli hands the status verb for `argv` (through a stub implementation). */
async function viaTable(argv: string[]): Promise<Record<string, unknown> | null> {
  let seen: Record<string, unknown> | null = null;
  const code = await main(["session", "status", ...argv], fakeDeps(), {
    overrides: {
      "session status": (flags: Record<string, unknown>) => {
        seen = definedOnly(flags);
      },
    },
  });
  return code === 0 ? seen : null;
}

const ACCEPTED: string[][] = [
  ["--session", "lisa-a", "--json"],
  ["--session=lisa-a", "--json-min", "--fail-not-found"],
  ["--project-root", "/p", "--session", "lisa-b"],
  ["--project-root=/a b", "--session", "lisa-b", "--json"],
];

Deno.test("the pre-parser reads what stricli reads, from the same specs", async () => {
  for (const argv of ACCEPTED) {
    const pre = preparse(argv, statusFlags);
    ok(pre !== null, argv.join(" "));
    const table = await viaTable(argv);
    // stricli leaves optional flags out when absent; the pre-parser too.
    deepStrictEqual(pre, table, argv.join(" "));
  }
});

Deno.test("anything the pre-parser does not fully understand goes to the full command line", () => {
  for (
    const argv of [
      ["--help"],
      ["-h"],
      ["--jsn"],
      ["--session"],
      ["--session", "--json"],
      ["--session", "a", "extra"],
      ["--json=true"],
      ["--"],
    ]
  ) {
    strictEqual(preparse(argv, statusFlags), null, argv.join(" "));
  }
});

Deno.test("parsed values go through the flag's own parser; defaults and --no- forms apply", () => {
  const flags = preparse(["--width=120", "--no-hooks", "--agent", "Codex"], spawnFlags);
  strictEqual(flags?.width, 120);
  strictEqual(flags?.hooks, false);
  strictEqual(flags?.agent, "codex");
  strictEqual(flags?.dangerouslySkipPermissions, true);
  strictEqual(flags?.nestedPolicy, "auto");
  strictEqual(preparse(["--width", "3"], spawnFlags), null); // below its minimum
  strictEqual(preparse(["--agent", "gpt"], spawnFlags), null);
});

async function moduleGraph(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string }[];
  };
  return info.modules.map((m) => m.specifier);
}

Deno.test("the status path and the hook load neither stricli nor node:* modules", async () => {
  for (const entry of ["../../src/cli/fast_status.ts", "../../src/core/hook/run_hook.ts"]) {
    const specs = await moduleGraph(entry);
    ok(specs.length > 3, entry);
    for (const s of specs) ok(s.startsWith("file://"), `${entry} loads ${s}`);
  }
});
