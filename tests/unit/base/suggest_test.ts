import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { closest, editDistance } from "../../../src/base/suggest.ts";

Deno.test("editDistance counts a swap of neighbours as one edit", () => {
  strictEqual(editDistance("sned", "send"), 1);
  strictEqual(editDistance("Escpe", "Escape"), 1);
  strictEqual(editDistance("wrong", "json"), 3);
  strictEqual(editDistance("", "abc"), 3);
});

Deno.test("closest offers typos and words it begins, best first, or nothing", () => {
  deepStrictEqual(closest("statsu", ["status", "spawn", "send"]), ["status"]);
  deepStrictEqual(closest("kil", ["kill", "kill-all", "list"]), ["kill", "kill-all"]);
  deepStrictEqual(closest("--timeout", ["--timeout-seconds", "--json"]), ["--timeout-seconds"]);
  deepStrictEqual(closest("--wrong", ["--json", "--force", "--session"]), []);
  deepStrictEqual(closest("js", ["ok", "json"]), []); // two letters: too short to guess
  deepStrictEqual(closest("a", ["a"]), []); // the word itself is no suggestion
});
