import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { parseFastStatusArgs } from "../../src/cli/fast_status.ts";

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

Deno.test("the lean status path loads neither commander nor node:* modules", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("../../src/cli/fast_status.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string }[];
  };
  const specs = info.modules.map((m) => m.specifier);
  ok(specs.length > 5);
  for (const s of specs) ok(s.startsWith("file://"), `lean path loads ${s}`);
});
