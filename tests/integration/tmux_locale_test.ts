/**
 * lisa reads tmux right whatever the caller's locale: a lisa run over ssh, from cron or from a
 * bare service environment often has no UTF-8 `LANG`, and a tmux client then prints control
 * characters (lisa's `-F` field separator) and non-ASCII text as `_` unless it is told to write
 * UTF-8 (`tmux -u`).
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor } from "../helpers/world.ts";

const C_LOCALE = { LANG: "C", LC_ALL: "C", LC_CTYPE: "C" };

Deno.test("status, list and capture read the pane under the C locale (no UTF-8 in LANG/LC_*)", async () => {
  const world = await makeWorld();
  try {
    const spawned = await world.lisa([
      "session",
      "spawn",
      "--command",
      "printf '✳ naïve 日本 ready\\n'; sleep 60",
      "--json",
    ], { env: C_LOCALE });
    strictEqual(spawned.code, 0, spawned.stdout + spawned.stderr);
    const session = String(spawned.json?.session);
    const shown = await waitFor(async () => {
      const r = await world.lisa(["session", "capture", "--session", session, "--json"], {
        env: C_LOCALE,
      });
      return String(r.json?.capture ?? "").includes("ready") ? r : undefined;
    }, 30_000);
    ok(shown, "capture never showed the pane's text");
    ok(String(shown.json?.capture).includes("✳ naïve 日本 ready"), String(shown.json?.capture));
    const status = await world.lisa(["session", "status", "--session", session, "--json"], {
      env: C_LOCALE,
    });
    strictEqual(status.code, 0, status.stderr);
    strictEqual(status.json?.sessionState, "in_progress", status.stdout);
    const list = await world.lisa(["session", "list", "--json"], { env: C_LOCALE });
    const rows = list.json?.items as { session: string; state: string }[];
    strictEqual(rows.find((r) => r.session === session)?.state, "in_progress", list.stdout);
  } finally {
    await world.dispose();
  }
});
