import { deepStrictEqual } from "node:assert/strict";
import { joinDashValues } from "../../src/cli/table.ts";

Deno.test("a value starting with a dash is joined to its flag, as Go's parser read it", () => {
  deepStrictEqual(
    joinDashValues([
      "session",
      "spawn",
      "--agent-args",
      "--dangerously-bypass-approvals-and-sandbox",
      "--json",
    ]),
    ["session", "spawn", "--agent-args=--dangerously-bypass-approvals-and-sandbox", "--json"],
  );
  // The next word is a flag of the verb: the value is missing (the parser says so).
  deepStrictEqual(
    joinDashValues(["session", "spawn", "--prompt", "--json"]),
    ["session", "spawn", "--prompt", "--json"],
  );
  // Booleans take no value; negative numbers stay as they are; unknown verbs are left alone.
  deepStrictEqual(
    joinDashValues(["session", "capture", "--raw", "-x"]),
    ["session", "capture", "--raw", "-x"],
  );
  deepStrictEqual(
    joinDashValues(["session", "capture", "--lines", "-5"]),
    ["session", "capture", "--lines", "-5"],
  );
  deepStrictEqual(joinDashValues(["sesion", "x", "--y", "-z"]), ["sesion", "x", "--y", "-z"]);
});
