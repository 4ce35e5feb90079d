import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { parseFastStatusArgs } from "../../src/cli/fast_status.ts";
import { parseLeanFlags } from "../../src/cli/lean_args.ts";

Deno.test("the lean status parser understands the status flags in both spellings", () => {
  deepStrictEqual(parseFastStatusArgs(["--session", "lisa-a", "--json"]), {
    session: "lisa-a",
    json: true,
    jsonMin: false,
    failNotFound: false,
  });
  deepStrictEqual(
    parseFastStatusArgs([
      "--session=lisa-a",
      "--project-root=/x y",
      "--json-min",
      "--fail-not-found",
    ]),
    { session: "lisa-a", projectRoot: "/x y", json: false, jsonMin: true, failNotFound: true },
  );
  deepStrictEqual(
    parseFastStatusArgs(["--project-root", "/p", "--session", "lisa-b"])?.projectRoot,
    "/p",
  );
});

Deno.test("anything the lean parser does not understand goes to the full CLI", () => {
  strictEqual(parseFastStatusArgs([]), null);
  strictEqual(parseFastStatusArgs(["--json"]), null);
  strictEqual(parseFastStatusArgs(["--session"]), null);
  strictEqual(parseFastStatusArgs(["--session", "--json"]), null);
  strictEqual(parseFastStatusArgs(["--session", "lisa-a", "--help"]), null);
  strictEqual(parseFastStatusArgs(["--session", "lisa-a", "--jsn"]), null);
  strictEqual(parseFastStatusArgs(["--session", "lisa-a", "extra"]), null);
  strictEqual(parseFastStatusArgs(["--session", "lisa-a", "--json=yes"]), null);
  strictEqual(parseFastStatusArgs(["-h"]), null);
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

for (const entry of ["../../src/cli/fast_status.ts", "../../src/cli/fast_list.ts"]) {
  Deno.test(`the lean path ${entry.slice(13)} loads neither commander nor node:* modules`, async () => {
    const specs = await moduleGraph(entry);
    ok(specs.length > 5);
    for (const s of specs) ok(s.startsWith("file://"), `lean path loads ${s}`);
  });
}

Deno.test("lean flags: values, booleans and --flag=value; anything else is not understood", () => {
  const spec = { values: ["--project-root"], booleans: ["--json", "--project-only"] };
  deepStrictEqual(parseLeanFlags(["--json", "--project-root=/a b", "--project-only"], spec), {
    "--json": true,
    "--project-root": "/a b",
    "--project-only": true,
  });
  deepStrictEqual(parseLeanFlags([], spec), {});
  strictEqual(parseLeanFlags(["--all-sockets"], spec), null);
  strictEqual(parseLeanFlags(["--project-root"], spec), null);
  strictEqual(parseLeanFlags(["--project-root="], spec), null);
  strictEqual(parseLeanFlags(["--json=true"], spec), null);
  strictEqual(parseLeanFlags(["--help"], spec), null);
  strictEqual(parseLeanFlags(["stray"], spec), null);
});
