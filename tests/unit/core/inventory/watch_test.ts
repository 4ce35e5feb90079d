/** `watch --until`: which states satisfy a condition. */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { meets } from "../../../../src/core/inventory/watch.ts";
import { remoteWatchArgs } from "../../../../src/core/inventory/watch_hosts.ts";

Deno.test("--until terminal is any terminal state; a state name is that state only", () => {
  for (const s of ["completed", "crashed", "stuck", "not_found"] as const) {
    strictEqual(meets(s, "terminal"), true, s);
  }
  for (const s of ["just_started", "in_progress", "waiting_input", "degraded"] as const) {
    strictEqual(meets(s, "terminal"), false, s);
  }
  strictEqual(meets("waiting_input", "waiting_input"), true);
  strictEqual(meets("in_progress", "waiting_input"), false);
  strictEqual(meets(null, "terminal"), false);
});

Deno.test("--until with several states is met by any one of them", () => {
  const until = ["waiting_input", "terminal"];
  for (const s of ["waiting_input", "completed", "crashed", "stuck", "not_found"] as const) {
    strictEqual(meets(s, until), true, s);
  }
  for (const s of ["just_started", "in_progress", "degraded"] as const) {
    strictEqual(meets(s, until), false, s);
  }
  strictEqual(meets("in_progress", ["waiting_input"]), false);
  strictEqual(meets(null, until), false);
});

Deno.test("a host's watch gets the --until states as the CLI takes them, comma-separated", () => {
  const args = remoteWatchArgs({
    hosts: [],
    until: ["waiting_input", "terminal"],
    quantifier: "all",
  });
  deepStrictEqual(args.slice(args.indexOf("--until"), args.indexOf("--until") + 2), [
    "--until",
    "waiting_input,terminal",
  ]);
  ok(args.includes("--all"));
  const one = remoteWatchArgs({ hosts: [], until: "terminal" });
  deepStrictEqual(one.slice(one.indexOf("--until"), one.indexOf("--until") + 2), [
    "--until",
    "terminal",
  ]);
});
