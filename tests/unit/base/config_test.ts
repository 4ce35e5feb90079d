import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type ConfigEntry, loadConfig, VARIABLES } from "../../../src/base/config.ts";

function entry(entries: ConfigEntry[], name: string): ConfigEntry {
  const e = entries.find((x) => x.name === name);
  ok(e, name);
  return e;
}

Deno.test("loadConfig gives the seed defaults for an empty environment", () => {
  const { config, entries } = loadConfig({}, 1234);
  deepStrictEqual(
    {
      cmdTimeoutSeconds: config.cmdTimeoutSeconds,
      stateLockTimeoutMs: config.stateLockTimeoutMs,
      eventLockTimeoutMs: config.eventLockTimeoutMs,
      processListCacheMs: config.processListCacheMs,
      processScanIntervalSeconds: config.processScanIntervalSeconds,
      heartbeatStaleSeconds: config.heartbeatStaleSeconds,
      outputStaleSeconds: config.outputStaleSeconds,
      eventsMaxBytes: config.eventsMaxBytes,
      eventsMaxLines: config.eventsMaxLines,
      eventRetentionDays: config.eventRetentionDays,
      agentProcessMatch: config.agentProcessMatch,
      cleanupAllHashes: config.cleanupAllHashes,
      projectRoot: config.projectRoot,
      tmuxSocketDir: config.tmuxSocketDir,
      runtimeDir: config.runtimeDir,
      hooks: config.hooks,
      stallSeconds: config.stallSeconds,
      graceSeconds: config.graceSeconds,
      quietSeconds: config.quietSeconds,
    },
    {
      cmdTimeoutSeconds: 20,
      stateLockTimeoutMs: 2500,
      eventLockTimeoutMs: 2500,
      processListCacheMs: 500,
      processScanIntervalSeconds: 8,
      heartbeatStaleSeconds: 8,
      outputStaleSeconds: 240,
      eventsMaxBytes: 1_000_000,
      eventsMaxLines: 2000,
      eventRetentionDays: 14,
      agentProcessMatch: [],
      cleanupAllHashes: false,
      projectRoot: undefined,
      tmuxSocketDir: undefined,
      runtimeDir: "/tmp/lisa-1234",
      hooks: "on",
      stallSeconds: 300,
      graceSeconds: 8,
      quietSeconds: 3,
    },
  );
  strictEqual(entries.length, VARIABLES.length);
  ok(entries.every((e) => e.valid && e.source === "default" && e.raw === null));
});

Deno.test("loadConfig honours valid values of every kind", () => {
  const { config, entries } = loadConfig({
    LISA_EVENTS_MAX_LINES: " 50 ",
    LISA_STATE_LOCK_TIMEOUT_MS: "0",
    LISA_CLEANUP_ALL_HASHES: "Yes",
    LISA_AGENT_PROCESS_MATCH: "aider, ,goose,",
    LISA_RUNTIME_DIR: "/var/run/lisa/",
    LISA_TMUX_SOCKET_DIR: "",
    LISA_HOOKS: "OFF",
    LISA_SESSION_NAME: "lisa-parent",
  }, 0);
  strictEqual(config.eventsMaxLines, 50);
  strictEqual(config.stateLockTimeoutMs, 0);
  strictEqual(config.cleanupAllHashes, true);
  deepStrictEqual(config.agentProcessMatch, ["aider", "goose"]);
  strictEqual(config.runtimeDir, "/var/run/lisa", "trailing slash dropped");
  strictEqual(config.tmuxSocketDir, undefined, "empty means unset");
  strictEqual(config.hooks, "off");
  strictEqual(config.sessionName, "lisa-parent");
  const e = entry(entries, "LISA_EVENTS_MAX_LINES");
  deepStrictEqual([e.value, e.raw, e.source, e.valid], [50, " 50 ", "env", true]);
});

Deno.test("invalid values fall back to the default and are flagged with a reason", () => {
  const cases: [string, string, RegExp][] = [
    ["LISA_EVENTS_MAX_LINES", "-5", /not a non-negative integer/],
    ["LISA_CMD_TIMEOUT_SECONDS", "ten", /not a non-negative integer/],
    ["LISA_CMD_TIMEOUT_SECONDS", "0", /below the minimum 1/],
    ["LISA_EVENTS_MAX_BYTES", "100", /below the minimum 1024/],
    ["LISA_EVENT_LOCK_TIMEOUT_MS", "1.5", /not a non-negative integer/],
    ["LISA_EVENT_RETENTION_DAYS", "99999999999999999999", /too large/],
    ["LISA_CLEANUP_ALL_HASHES", "maybe", /not a boolean/],
    ["LISA_RUNTIME_DIR", "relative/dir", /not an absolute path/],
    ["LISA_HOOKS", "sometimes", /expected one of on\|off/],
  ];
  for (const [name, raw, why] of cases) {
    const { entries } = loadConfig({ [name]: raw }, 7);
    const e = entry(entries, name);
    strictEqual(e.valid, false, `${name}=${raw}`);
    strictEqual(e.source, "default");
    strictEqual(e.raw, raw);
    deepStrictEqual(e.value, e.defaultValue);
    ok(why.test(e.message ?? ""), e.message);
    ok(e.message?.includes(`${name}="${raw}"`), e.message);
  }
  const { config } = loadConfig({ LISA_EVENTS_MAX_LINES: "-5", LISA_RUNTIME_DIR: "x" }, 7);
  strictEqual(config.eventsMaxLines, 2000);
  strictEqual(config.runtimeDir, "/tmp/lisa-7");
});

Deno.test("loadConfig ignores variables that are not lisa's", () => {
  const { entries } = loadConfig({ HOME: "/root", LISA_UNKNOWN: "1" }, 0);
  ok(entries.every((e) => e.name !== "LISA_UNKNOWN" && e.name !== "HOME"));
});
