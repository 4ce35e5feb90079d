/** A tool call for another host becomes the command line the host's lisa gets (issue 24). */
import { deepStrictEqual } from "node:assert/strict";
import { argvOfArgs } from "../../../src/mcp/call.ts";
import { toolSpecs } from "../../../src/mcp/tools.ts";

const tool = (name: string) => toolSpecs().find((t) => t.name === name)!;

Deno.test("each argument becomes its flag, written as the flag reads it back; json is always on", () => {
  deepStrictEqual(
    argvOfArgs(tool("spawn"), {
      host: "box1",
      command: "echo 'hi' $(x)",
      hooks: false,
      dangerouslySkipPermissions: true,
      width: 120,
      dryRun: false,
      projectRoot: null,
    }),
    [
      "session",
      "spawn",
      "--host=box1",
      "--command=echo 'hi' $(x)",
      "--no-hooks",
      "--dangerously-skip-permissions",
      "--width=120",
      "--json",
    ],
  );
  deepStrictEqual(
    argvOfArgs(tool("capture"), { session: "box1:a", markers: ["DONE", "-x"], lines: 5 }),
    ["session", "capture", "--session=box1:a", "--markers=DONE,-x", "--lines=5", "--json"],
  );
});
