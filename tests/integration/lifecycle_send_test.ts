/**
 * send against real tmux: bracketed paste delivers multi-line text byte-exact, Enter comes as
 * its own key, key names work, and a missing session is a clear error.
 */
import { ok, strictEqual } from "node:assert/strict";
import type { SessionStateFile } from "../../src/base/types.ts";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { artifact, endStray, readIf, spawn, waitPane } from "./lifecycle_helpers.ts";

const TEXT = `first "double" and 'single'\n$HOME $(touch PWNED) \`id\` \\ backslash\n` +
  `ñ 日本語 🚀 tab\there\nlast line`;

Deno.test("multi-line text with quotes, $, backticks and non-ASCII arrives byte-exact in one bracketed paste", async () => {
  const world = await makeWorld();
  try {
    const record = `${world.base}/recorded`;
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: `record:${record}` });
    // The fake prints "recording" right after enabling bracketed paste in a raw terminal.
    await waitPane(world, s, "recording");
    const r = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      TEXT,
      "--enter",
      // The recorder shows nothing of what it got: no receipt to wait for (receipt_test.ts).
      "--confirm-timeout",
      "0",
      "--json",
    ]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    strictEqual(r.json?.textBytes, new TextEncoder().encode(TEXT).length);
    // tmux pastes newlines as CR (as a terminal does); the Enter is a separate CR after the paste.
    const expected = `\x1b[200~${TEXT.replaceAll("\n", "\r")}\x1b[201~\r`;
    const got = await waitFor(() => {
      const text = readIf(record);
      return text === expected ? text : undefined;
    }, 30_000);
    strictEqual(readIf(record), expected);
    ok(got);
    strictEqual(readIf(`${world.projectRoot}/PWNED`), undefined);
    const state = JSON.parse(readIf(artifact(world, s, "state.json"))!) as SessionStateFile;
    ok(typeof state.lastInputAtMs === "number" && state.lastInputAtMs > 0);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("an interactive agent gets a line per send, and --keys sends tmux key names", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "codex"]);
    await waitPane(world, s, "> ");
    const sent = await world.lisa([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "hello there",
      "--enter",
    ]);
    strictEqual(sent.code, 0, sent.stderr);
    strictEqual(sent.stdout, "ok\n");
    await waitPane(world, s, "got: hello there");
    const keys = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--keys",
      "a b Enter",
    ]);
    strictEqual(keys.code, 0, keys.stderr);
    await waitPane(world, s, "got: ab");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("send to a missing session is session_not_found with exit 1", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      "lisa-nope",
      "--text",
      "x",
      "--json",
    ]);
    strictEqual(r.code, 1);
    strictEqual(r.json?.errorCode, "session_not_found");
    await spawn(world, ["--command", "sleep 60"]); // a server now runs, the session still does not
    const again = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      "lisa-nope",
      "--enter",
      "--json",
    ]);
    strictEqual(again.code, 1);
    strictEqual(again.json?.errorCode, "session_not_found");
    const nothing = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      "lisa-nope",
      "--json",
    ]);
    strictEqual(nothing.json?.errorCode, "missing_argument");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("send finds a session of another project from any directory", async () => {
  const world = await makeWorld();
  try {
    const other = `${world.base}/other-project`;
    Deno.mkdirSync(other);
    const s = await spawn(world, ["--agent", "claude", "--project-root", other]);
    await waitPane(world, s, "> ");
    const r = await world.lisaInProcess(
      ["session", "send", "--session", s.session, "--text", "from afar", "--enter", "--json"],
      { cwd: world.projectRoot },
    );
    strictEqual(r.code, 0, r.stdout + r.stderr);
    await waitPane(world, s, "got: from afar");
  } finally {
    await endStray();
    await world.dispose();
  }
});
