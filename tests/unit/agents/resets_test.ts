import { strictEqual } from "node:assert/strict";
import { resolveResetsAt } from "../../../src/agents/rules/resets.ts";

const NOW = Date.parse("2026-11-25T21:40:00Z");

Deno.test("a time of day is the next such time, in UTC unless a zone is named", () => {
  strictEqual(resolveResetsAt("8:50pm (UTC)", NOW), "2026-11-26T20:50:00.000Z");
  strictEqual(resolveResetsAt("10pm (UTC)", NOW), "2026-11-25T22:00:00.000Z");
  strictEqual(resolveResetsAt("9:15 PM.", NOW), "2026-11-26T21:15:00.000Z");
  strictEqual(resolveResetsAt("at 11:05 pm", NOW), "2026-11-25T23:05:00.000Z");
  strictEqual(resolveResetsAt("9pm (Europe/Paris)", NOW), "2026-11-26T20:00:00.000Z");
});

Deno.test("dates as codex prints them, and relative times", () => {
  strictEqual(resolveResetsAt("Nov 26th, 2026 12:22 AM", NOW), "2026-11-26T00:22:00.000Z");
  strictEqual(resolveResetsAt("Jan 2, 9am", NOW), "2027-01-02T09:00:00.000Z");
  strictEqual(resolveResetsAt("in 2h 5m", NOW), "2026-11-25T23:45:00.000Z");
  strictEqual(resolveResetsAt("45 minutes", NOW), "2026-11-25T22:25:00.000Z");
});

Deno.test("text that names no time gives null", () => {
  strictEqual(resolveResetsAt("tomorrow", NOW), null);
  strictEqual(resolveResetsAt("25:00", NOW), null);
  strictEqual(resolveResetsAt("9pm (Mars/Olympus)", NOW), null);
  strictEqual(resolveResetsAt("in 3 fortnights", NOW), null);
});
