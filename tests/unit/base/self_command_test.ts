/** The argv lisa uses to run itself again (nested sessions, the hooks it injects into agents). */
import { deepStrictEqual } from "node:assert/strict";
import { BUNDLE_RUN_FLAGS, DENO_PERMISSIONS, detectSelfCommand } from "../../../src/base/deps.ts";

Deno.test("from source: deno run with the checkout's deno.json and main.ts", () => {
  deepStrictEqual(detectSelfCommand("/usr/bin/deno", "file:///repo%20dir/main.ts"), [
    "/usr/bin/deno",
    "run",
    "-q",
    ...DENO_PERMISSIONS,
    "--config",
    "/repo dir/deno.json",
    "/repo dir/main.ts",
  ]);
});

Deno.test("built: deno run of dist/lisa.js with the built entry's flags, no config", () => {
  deepStrictEqual(detectSelfCommand("/usr/bin/deno", "file:///repo/dist/lisa.js"), [
    "/usr/bin/deno",
    "run",
    "-q",
    ...DENO_PERMISSIONS,
    ...BUNDLE_RUN_FLAGS,
    "/repo/dist/lisa.js",
  ]);
});

Deno.test("compiled: the binary itself", () => {
  deepStrictEqual(detectSelfCommand("/usr/local/bin/lisa", "file:///tmp/x/main.ts"), [
    "/usr/local/bin/lisa",
  ]);
});
