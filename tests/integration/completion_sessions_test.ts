/**
 * What the completion scripts get from `lisa completions sessions|history <prefix>` with real
 * sessions: each session once, by its alias, or by its full name when that is what was typed;
 * and a `list --watch` on a terminal puts the cursor back when it is ended by SIGTERM.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, makeWorld, waitFor } from "../helpers/world.ts";
import { endStray, spawn } from "./lifecycle_helpers.ts";

Deno.test("completions sessions offers each live session once, by alias, or by name when typed", async () => {
  const world = await makeWorld();
  try {
    const a = await spawn(world, ["--command", "sleep 120"]);
    const b = await spawn(world, ["--command", "sleep 120"]);
    const aliases = [a.alias, b.alias] as string[];
    ok(aliases.every((x) => typeof x === "string" && x !== ""), JSON.stringify(aliases));
    const all = await world.lisaInProcess(["completions", "sessions"]);
    strictEqual(all.code, 0, all.stderr);
    deepStrictEqual(all.stdout.trim().split("\n"), [...aliases].sort());
    // Typed the start of a full name: the full names, still once each.
    const full = await world.lisaInProcess(["completions", "sessions", "lisa-"]);
    deepStrictEqual(full.stdout.trim().split("\n"), [a.session, b.session].sort());
    // An alias prefix picks that session only.
    const one = await world.lisaInProcess(["completions", "sessions", aliases[0]]);
    deepStrictEqual(one.stdout.trim().split("\n"), [aliases[0]]);
    const none = await world.lisaInProcess(["completions", "sessions", "zzz"]);
    strictEqual(none.stdout, "");
    // history show completes from history: a killed session is still there.
    strictEqual((await world.lisaInProcess(["session", "kill", "--session", a.session])).code, 0);
    const history = await world.lisaInProcess(["completions", "history", aliases[0]]);
    strictEqual(history.code, 0, history.stderr);
    deepStrictEqual(history.stdout.trim().split("\n"), [aliases[0]]);
  } finally {
    await endStray();
    await world.dispose();
  }
});

async function collect(stream: ReadableStream<Uint8Array>, sink: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink.text += decoder.decode(chunk, { stream: true });
  sink.text += decoder.decode();
}

/** The pids whose parent is `pid` (Linux). */
function childrenOf(pid: number): number[] {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`).trim().split(/\s+/)
      .filter((w) => w !== "").map(Number);
  } catch {
    return [];
  }
}

Deno.test("list --watch on a terminal restores the cursor when ended by SIGTERM, as by Ctrl-C", async () => {
  const world = await makeWorld();
  const quote = (w: string) => `'${w.replaceAll("'", `'\\''`)}'`;
  // script(1) gives lisa a terminal; `exec` makes lisa the shell's process itself.
  const command = `exec ${
    [...LISA_ARGV, "session", "list", "--watch", "0.3"].map(quote).join(" ")
  }`;
  const child = new Deno.Command("script", {
    args: ["-qfec", command, "/dev/null"],
    cwd: world.projectRoot,
    env: { ...world.env, TERM: "xterm", SHELL: "/bin/sh" },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = { text: "" };
  const reading = Promise.all([collect(child.stdout, out), collect(child.stderr, { text: "" })]);
  let lisaPid: number | undefined;
  try {
    // Two frames out: the listener is in place and the cursor hidden.
    const drawn = await waitFor(() => out.text.split("\x1b[H\x1b[2J").length > 2, 30_000);
    ok(drawn, JSON.stringify(out.text.slice(0, 200)));
    lisaPid = childrenOf(child.pid)[0];
    ok(lisaPid !== undefined, "lisa runs under script");
    Deno.kill(lisaPid, "SIGTERM");
    const { code } = await child.status;
    await child.stdin.close().catch(() => {});
    await reading;
    ok(out.text.startsWith("\x1b[?25l"), JSON.stringify(out.text.slice(0, 40)));
    ok(out.text.trimEnd().endsWith("\x1b[?25h"), JSON.stringify(out.text.slice(-40)));
    strictEqual(code, 0, "a watch ended on request ends normally");
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* ended */ }
    if (lisaPid !== undefined) {
      try {
        Deno.kill(lisaPid, "SIGKILL");
      } catch { /* ended */ }
    }
    await reading.catch(() => {});
    await world.dispose();
  }
});
