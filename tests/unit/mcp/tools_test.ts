/** The MCP tools are generated from the command table, and their arguments become its flags. */
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { flagsOf, toolName, toolSpecs } from "../../../src/mcp/tools.ts";
import { VERBS } from "../../../src/cli/verbs.ts";
import { LisaError } from "../../../src/base/errors.ts";
import { briefOf } from "../../../src/cli/flags.ts";
import { outcomeOf } from "../../../src/mcp/call.ts";
import { REFERENCE_PATH, referencePage } from "../../../src/mcp/reference.ts";

const tool = (name: string) => toolSpecs().find((t) => t.name === name)!;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof LisaError) return error.code;
    throw error;
  }
  return "none";
}

Deno.test("tool names are the routes without session, words joined by _", () => {
  strictEqual(toolName("session kill-all"), "kill_all");
  strictEqual(toolName("history list"), "history_list");
  strictEqual(toolName("session status"), "status");
  strictEqual(toolName("doctor"), "doctor");
});

Deno.test("every verb but the terminal-only ones is a tool, each flag an argument", () => {
  const names = toolSpecs().map((t) => t.route);
  for (const [route, spec] of Object.entries(VERBS)) {
    strictEqual(names.includes(route), spec.mcp !== false, route);
  }
  const status = tool("status");
  deepStrictEqual(Object.keys(status.inputSchema.properties).sort(), [
    "agent",
    "failNotFound",
    "host",
    "mode",
    "projectRoot",
    "session",
  ]);
  strictEqual(status.description, VERBS["session status"].brief);
  strictEqual(
    status.inputSchema.properties.projectRoot.description,
    briefOf(VERBS["session status"].flags.projectRoot, "session status"),
  );
  strictEqual(status.inputSchema.additionalProperties, false);
});

Deno.test("argument types come from the flags' parsers", () => {
  const monitor = tool("monitor").inputSchema.properties;
  deepStrictEqual(monitor.maxPolls, {
    type: "integer",
    minimum: 1,
    description: briefOf(VERBS["session monitor"].flags.maxPolls, "session monitor"),
  });
  strictEqual(monitor.pollInterval.type, "number");
  strictEqual(monitor.stopOnWaiting.type, "boolean");
  strictEqual(monitor.stopOnWaiting.default, true);
  deepStrictEqual(monitor.expect.enum, ["any", "terminal", "marker"]);
  strictEqual(monitor.expect.default, "any");
  strictEqual(monitor.waitingRequiresTurnComplete.type, "boolean");
  deepStrictEqual(tool("capture").inputSchema.properties.markers.items, { type: "string" });
  strictEqual(tool("spawn").inputSchema.properties.dangerouslySkipPermissions.default, true);
  // A positional that names the session is `session`; another keeps its own name.
  ok(!("id" in tool("diff").inputSchema.properties));
  // A shared flag says what it does for this verb.
  strictEqual(
    tool("spawn").inputSchema.properties.agent.description,
    briefOf(VERBS["session spawn"].flags.agent, "session spawn"),
  );
  ok(tool("spawn").inputSchema.properties.agent.description.includes("to start"));
  deepStrictEqual(tool("history_search").inputSchema.required, ["words"]);
});

Deno.test("arguments become the verb's flags with the CLI's defaults and json on", () => {
  const call = flagsOf(tool("monitor"), { session: "s", maxPolls: 3, stopOnWaiting: false }, {
    projectRoot: "/p",
  });
  strictEqual(call.flags.session, "s");
  strictEqual(call.flags.maxPolls, 3);
  strictEqual(call.flags.stopOnWaiting, false);
  strictEqual(call.flags.expect, "any");
  strictEqual(call.flags.json, true);
  strictEqual(call.flags.projectRoot, "/p");
  strictEqual(
    flagsOf(tool("status"), { projectRoot: "/q" }, { projectRoot: "/p" }).flags.projectRoot,
    "/q",
  );
  deepStrictEqual(flagsOf(tool("history_show"), { session: "a" }).positionals, ["a"]);
  deepStrictEqual(flagsOf(tool("diff"), { session: "a" }).positionals, []);
  deepStrictEqual(
    flagsOf(tool("watch"), { until: "terminal", sessions: [" a", "", "b"] }).flags.sessions,
    [
      "a",
      "b",
    ],
  );
  // A list is an array, or the CLI's comma-separated text (`until: "terminal"` as ever).
  deepStrictEqual(flagsOf(tool("capture"), { markers: "a, b" }).flags.markers, ["a", "b"]);
  deepStrictEqual(flagsOf(tool("watch"), { until: "terminal" }).flags.until, ["terminal"]);
  for (const until of ["waiting_input,terminal", ["waiting_input", "terminal"]]) {
    deepStrictEqual(flagsOf(tool("watch"), { until }).flags.until, ["waiting_input", "terminal"]);
  }
  strictEqual(flagsOf(tool("spawn"), { agent: "codex" }).flags.agent, "codex");
  strictEqual(flagsOf(tool("spawn"), { hooks: false }).flags.hooks, false);
});

Deno.test("bad arguments throw the CLI's codes", () => {
  strictEqual(code(() => flagsOf(tool("status"), { nope: 1 })), "unknown_option");
  strictEqual(code(() => flagsOf(tool("status"), { json: true })), "unknown_option");
  strictEqual(code(() => flagsOf(tool("status"), { session: 1 })), "invalid_argument");
  strictEqual(code(() => flagsOf(tool("capture"), { lines: 0 })), "invalid_argument");
  strictEqual(code(() => flagsOf(tool("capture"), { lines: 1.5 })), "invalid_argument");
  strictEqual(code(() => flagsOf(tool("capture"), { markers: 5 })), "invalid_argument");
  strictEqual(code(() => flagsOf(tool("capture"), { markers: ["a", 1] })), "invalid_argument");
  strictEqual(code(() => flagsOf(tool("watch"), { until: "idle" })), "invalid_argument");
  strictEqual(
    code(() => flagsOf(tool("watch"), { until: ["terminal", "idle"] })),
    "invalid_argument",
  );
  strictEqual(code(() => flagsOf(tool("watch"), { until: [] })), "invalid_argument");
  strictEqual(code(() => flagsOf(tool("spawn"), { agent: "gpt" })), "invalid_agent");
  strictEqual(code(() => flagsOf(tool("spawn"), { mode: "fast" })), "invalid_mode");
  strictEqual(code(() => flagsOf(tool("watch"), {})), "missing_argument");
  strictEqual(code(() => flagsOf(tool("history_show"), {})), "missing_argument");
  strictEqual(
    code(() => flagsOf(tool("status"), [] as unknown as Record<string, unknown>)),
    "invalid_argument",
  );
  throws(() => flagsOf(tool("capture"), { lines: -1 }), /lines: expected a whole number from 1/);
});

Deno.test("a verb's printed JSON is the document; several lines keep the last with events", () => {
  deepStrictEqual(outcomeOf('{"ok":true,"a":1}\n', 0), {
    document: { ok: true, a: 1 },
    exitCode: 0,
    isError: false,
  });
  const failed = outcomeOf('{"ok":false,"errorCode":"x"}\n', 1);
  strictEqual(failed.isError, true);
  // Exit 2 without ok:false (a watch timeout, a turn that did not complete) is not an error.
  const watch = outcomeOf('{"type":"appeared"}\n{"type":"timeout"}\n', 2);
  deepStrictEqual(watch.document, { type: "timeout", events: [{ type: "appeared" }] });
  strictEqual(watch.isError, false);
});

Deno.test("the tools' reference page is generated from the table (deno task docs)", () => {
  const page = Deno.readTextFileSync(new URL(`../../../${REFERENCE_PATH}`, import.meta.url));
  strictEqual(page, referencePage());
  ok(page.includes("## `history_list`"));
  ok(page.includes("| `until` (required) |"));
});
