/**
 * A repeated single-value flag takes its last value (getopt, Go's `flag`, gh and the older Go lisa
 * do): orchestrators append flags to a base command line. Every value is still read, and the
 * pre-parsed status and list paths agree with the full command line.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { preparse } from "../../src/cli/preparse.ts";
import { listFlags } from "../../src/cli/commands/session/list_spec.ts";
import { statusFlags } from "../../src/cli/commands/session/status_spec.ts";
import { callStubbed as call } from "../helpers/cli_call.ts";

Deno.test("a repeated value flag takes its last value, whatever its spelling", async () => {
  const r = await call([
    "session",
    "spawn",
    "--model",
    "a",
    "--agent=codex",
    "--model=b",
    "--width",
    "100",
    "--width=120",
    "--agent",
    "claude",
    "--prompt",
    "first",
    "--prompt",
    "-",
  ]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
  strictEqual(r.flags?.model, "b");
  strictEqual(r.flags?.width, 120);
  strictEqual(r.flags?.agent, "claude");
  strictEqual(r.flags?.prompt, "-");
});

Deno.test("a repeated boolean takes its last form: --no-hooks … --hooks is hooks on", async () => {
  const on = await call(["session", "spawn", "--no-hooks", "--json", "--hooks", "--json"]);
  strictEqual(on.code, 0, on.stdout + on.stderr);
  deepStrictEqual([on.flags?.hooks, on.flags?.json], [true, true]);
  const off = await call(["session", "spawn", "--hooks", "--no-hooks", "--noHooks"]);
  strictEqual(off.code, 0, off.stdout + off.stderr);
  strictEqual(off.flags?.hooks, false);
});

Deno.test("an alias and its long flag count as one flag (version -v --verbose)", async () => {
  const r = await call(["version", "-v", "--verbose"]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
  strictEqual(r.flags?.verbose, true);
});

Deno.test("a value that only looks like a flag name stays a value", async () => {
  // `--text --session` is not a repeat of --session: the first is the text's value, joined as
  // Go's parser read it; the verb still gets the last --session.
  const r = await call([
    "session",
    "send",
    "--session",
    "lisa-a",
    "--keys",
    "Enter",
    "--session",
    "lisa-b",
    "--keys",
    "-x",
  ]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
  deepStrictEqual([r.flags?.session, r.flags?.keys], ["lisa-b", "-x"]);
});

Deno.test("a malformed earlier value is still an error, named as such", async () => {
  for (
    const argv of [
      ["session", "spawn", "--width", "abc", "--width", "100", "--json"],
      ["session", "spawn", "--width", "100", "--width", "abc", "--json"],
    ]
  ) {
    const r = await call(argv);
    strictEqual(r.code, 1, argv.join(" "));
    strictEqual(r.flags, undefined, "the verb did not run");
    strictEqual(r.json?.errorCode, "invalid_argument");
    ok(String(r.json?.error).startsWith("--width: expected a whole number"), r.stdout);
  }
  const missing = await call(["session", "spawn", "--width", "100", "--width", "--json"]);
  strictEqual(missing.code, 1);
  strictEqual(missing.json?.errorCode, "missing_argument", missing.stdout);
});

Deno.test("a flag with an optional value repeats too (list --watch 5 … --watch)", async () => {
  const r = await call(["session", "list", "--watch", "5", "--json", "--watch"]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
  strictEqual(r.flags?.watch, 2);
  const v = await call(["session", "list", "--watch", "--watch", "7"]);
  strictEqual(v.flags?.watch, 7);
});

Deno.test("the pre-parsed status and list paths take the last value too", async () => {
  const status = ["--session", "lisa-a", "--json", "--session=lisa-b", "--json"];
  const table = await call(["session", "status", ...status]);
  deepStrictEqual(table.flags, { session: "lisa-b", json: true });
  deepStrictEqual(preparse(status, statusFlags), table.flags);
  const list = ["--project-root", "/a", "--project-root", "/b", "--all-sockets", "--all-sockets"];
  deepStrictEqual(
    [preparse(list, listFlags)?.projectRoot, preparse(list, listFlags)?.allSockets],
    ["/b", true],
  );
  strictEqual((await call(["session", "list", ...list])).flags?.projectRoot, "/b");
  // A malformed earlier value: the pre-parser hands the call on, and the full line refuses it.
  strictEqual(preparse(["--watch", "x", "--watch", "3"], listFlags), null);
});
