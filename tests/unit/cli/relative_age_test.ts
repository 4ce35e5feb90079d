import { strictEqual } from "node:assert/strict";
import { relativeAge } from "../../../src/cli/output.ts";

const NOW = new Date("2026-01-02T00:00:00Z");
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

Deno.test("relativeAge reads as people say it, and '-' for a time that is not one", () => {
  strictEqual(relativeAge(ago(2), NOW), "just now");
  strictEqual(relativeAge(ago(42), NOW), "42s ago");
  strictEqual(relativeAge(ago(5 * 60 + 3), NOW), "5m ago");
  strictEqual(relativeAge(ago(2 * 3600), NOW), "2h ago");
  strictEqual(relativeAge(ago(3 * 86400), NOW), "3d ago");
  // A clock ahead of ours is "just now", never a negative age.
  strictEqual(relativeAge(ago(-30), NOW), "just now");
  // An unparseable creation time (a damaged meta, a history row) is not "NaNd ago".
  strictEqual(relativeAge(new Date("garbage"), NOW), "-");
});
