import { deepStrictEqual } from "node:assert/strict";
import { joinDashValues } from "../../src/cli/route_map.ts";

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

Deno.test("a multi-line value is passed as its own word, dash-led or after '='", () => {
  // stricli reads no word with a line end as a flag: `--text=a\nb` was an unexpected argument,
  // and a joined `--text=- one\n- two` too.
  deepStrictEqual(
    joinDashValues(["session", "send", "--text", "- one\n- two", "--enter"]),
    ["session", "send", "--text", "- one\n- two", "--enter"],
  );
  deepStrictEqual(
    joinDashValues(["session", "send", "--text=a\nb", "--session=s\r"]),
    ["session", "send", "--text", "a\nb", "--session", "s\r"],
  );
  // A multi-line value that looks like `--x=…` is still the value of the flag before it.
  deepStrictEqual(
    joinDashValues(["session", "spawn", "--prompt", "--x=1\n--y", "--json"]),
    ["session", "spawn", "--prompt", "--x=1\n--y", "--json"],
  );
  deepStrictEqual(
    joinDashValues(["session", "send", "--text", "- one line"]),
    ["session", "send", "--text=- one line"],
  );
});
