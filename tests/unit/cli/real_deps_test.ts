import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { detectSelfCommand } from "../../../src/base/deps.ts";
import { realDeps } from "../../../src/cli/real_deps.ts";

Deno.test("realDeps: selfCommand is this process's command, worked out once when first read", () => {
  const deps = realDeps({ LISA_CMD_TIMEOUT_SECONDS: "7" });
  strictEqual(deps.config.cmdTimeoutSeconds, 7);
  const want = detectSelfCommand(Deno.execPath(), Deno.mainModule);
  deepStrictEqual(deps.selfCommand, want);
  strictEqual(deps.selfCommand, deps.selfCommand);
  deepStrictEqual({ ...deps }.selfCommand, want);
});
