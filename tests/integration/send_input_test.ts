/**
 * send against real tmux and the recording fake agent (raw terminal, bracketed paste on, every
 * input byte copied to a file): parallel sends stay apart, unknown key names send nothing, paste
 * delimiters inside the text cannot end the paste, and large text comes in by file or stdin.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import {
  artifactsOf,
  endStray,
  readIf,
  spawn,
  type Spawned,
  waitPane,
} from "./lifecycle_helpers.ts";

const START = "\x1b[200~";
const END = "\x1b[201~";

/**
 * A claude fake in record mode, ready (bracketed paste enabled); returns it and its file. It
 * records input and shows nothing: its sends pass `--confirm-timeout 0` (receipts have their
 * own tests, with agents that show what they took).
 */
async function recording(world: World): Promise<{ s: Spawned; record: string }> {
  const record = `${world.base}/recorded`;
  const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: `record:${record}` });
  await waitPane(world, s, "recording");
  return { s, record };
}

/** Waits until the recording holds `expected` exactly, then returns what it holds. */
async function recorded(record: string, expected: string): Promise<string | undefined> {
  await waitFor(() => readIf(record) === expected, 30_000);
  return readIf(record);
}

Deno.test("eight parallel sends to one session arrive as eight separate, complete submissions", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    const texts = Array.from({ length: 8 }, (_, i) => `msg-${i + 1}`);
    // Subprocesses, not in-process calls: they really race for the pane.
    const results = await Promise.all(
      texts.map((t) =>
        world.lisa([
          "session",
          "send",
          "--session",
          s.session,
          "--text",
          t,
          "--enter",
          "--confirm-timeout",
          "0",
          "--json",
        ])
      ),
    );
    for (const r of results) strictEqual(r.code, 0, r.stdout + r.stderr);
    // Each send is one paste immediately followed by its own Enter (tmux pastes CR for Enter).
    // deno-lint-ignore no-control-regex -- the paste delimiters are what is checked
    const unit = /\x1b\[200~(msg-\d)\x1b\[201~\r/g;
    const got = await waitFor(() => {
      const text = readIf(record) ?? "";
      return text.replace(unit, "") === "" && [...text.matchAll(unit)].length === 8
        ? text
        : undefined;
    }, 30_000);
    const text = readIf(record) ?? "";
    ok(got !== undefined, `merged or incomplete submissions: ${JSON.stringify(text)}`);
    deepStrictEqual([...text.matchAll(unit)].map((m) => m[1]).sort(), texts.sort());
    // The input lock lives with the session's artifacts and goes with them at kill.
    ok(artifactsOf(world, s.session).some((n) => n.endsWith("-input.lock")));
    const killed = await world.lisaInProcess(["session", "kill", "--session", s.session, "--json"]);
    strictEqual(killed.code, 0, killed.stdout + killed.stderr);
    deepStrictEqual(artifactsOf(world, s.session).filter((n) => n.endsWith("-input.lock")), []);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("an unknown --keys name is invalid_key with a suggestion, and nothing reaches the agent", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    const bad = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "before",
      "--keys",
      "Escpe",
      "--enter",
      "--json",
    ]);
    strictEqual(bad.code, 1, bad.stdout);
    strictEqual(bad.json?.errorCode, "invalid_key");
    ok(String(bad.json?.error).includes('did you mean "Escape"?'), String(bad.json?.error));
    // Single characters are keys (dialog answers), names are case-insensitive like tmux's.
    const good = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--keys",
      "y 1 q escape C-c",
      "--json",
    ]);
    strictEqual(good.code, 0, good.stdout + good.stderr);
    strictEqual(await recorded(record, "y1q\x1b\x03"), "y1q\x1b\x03");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("modified keys tmux types out as text (S-Enter, S-a, C-M-1) are invalid_key; the ones it sends arrive", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    const send = (keys: string) =>
      world.lisaInProcess(["session", "send", "--session", s.session, "--keys", keys, "--json"]);
    // tmux 3.3a reads each as a key, cannot send it, and types its name instead ("S-Enter").
    for (const keys of ["S-Enter", "S-a", "S-Tab", "C-S-a", "C-M-1", "C-M-Enter", "S-Space"]) {
      const bad = await send(keys);
      strictEqual(bad.code, 1, `${keys}: ${bad.stdout}`);
      strictEqual(bad.json?.errorCode, "invalid_key", keys);
    }
    strictEqual((await send("Shift+Tab")).json?.suggestion, "BTab");
    // Shift on a cursor key, Ctrl+Meta on a letter, Meta on Enter: tmux sends them.
    const good = await send("S-Up C-M-a M-Enter BTab");
    strictEqual(good.code, 0, good.stdout + good.stderr);
    const want = "\x1b[1;2A\x1b\x01\x1b\r\x1b[Z";
    strictEqual(await recorded(record, want), want);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("Ctrl keys tmux reads but sends nothing for (C-Enter, C-Tab, C-1) are invalid_key", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    const send = (keys: string) =>
      world.lisaInProcess(["session", "send", "--session", s.session, "--keys", keys, "--json"]);
    // tmux 3.3a has no code for these: it reads the key, then nothing reaches the pane.
    for (const keys of ["C-Enter", "C-Tab", "C-BSpace", "C-1", "C-!", "C-KP0"]) {
      const bad = await send(keys);
      strictEqual(bad.code, 1, `${keys}: ${bad.stdout}`);
      strictEqual(bad.json?.errorCode, "invalid_key", keys);
    }
    const good = await send("C-2 C-/ C-Space C-a");
    strictEqual(good.code, 0, good.stdout + good.stderr);
    const want = "\x00\x1f\x00\x01";
    strictEqual(await recorded(record, want), want);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("multi-line text that starts with a dash, or given as --text=…, arrives as one paste", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    // A markdown list: the value starts with "-" and holds a newline (was unexpected_argument).
    const list = await world.lisa([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "- fix tests\n- update docs",
      "--json",
    ]);
    strictEqual(list.code, 0, list.stdout + list.stderr);
    const inline = await world.lisa([
      "session",
      "send",
      `--session=${s.session}`,
      "--text=first\nsecond",
      "--json",
    ]);
    strictEqual(inline.code, 0, inline.stdout + inline.stderr);
    const want = `${START}- fix tests\r- update docs${END}${START}first\rsecond${END}`;
    strictEqual(await recorded(record, want), want);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a paste terminator and control characters inside --text cannot end the paste", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    const text = "a\nb\x1b[201~c\x1b[A\x03\x9b1~ \"q\" '; rm -rf ~; ' $(touch X)\tñ 🚀\r\nz";
    const r = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      text,
      "--enter",
      "--confirm-timeout",
      "0",
      "--json",
    ]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    // One paste with the inert text (tmux sends each newline as CR), then Enter on its own.
    const clean = "a\rbc[A1~ \"q\" '; rm -rf ~; ' $(touch X)\tñ 🚀\rz";
    const expected = `${START}${clean}${END}\r`;
    strictEqual(await recorded(record, expected), expected);
    strictEqual(r.json?.removedChars, 9);
    strictEqual(readIf(`${world.projectRoot}/X`), undefined);
  } finally {
    await endStray();
    await world.dispose();
  }
});

/** 200 KB of multi-line text, every line different (so a lost or repeated chunk shows). */
function largeText(): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 200_000; i++) {
    const line = `line ${i} ${"x".repeat(60)} ñ`;
    lines.push(line);
    size += new TextEncoder().encode(line).length + 1;
  }
  return lines.join("\n");
}

Deno.test("200 KB of text arrives complete through --text-file and through --text - (stdin)", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    const text = largeText();
    ok(new TextEncoder().encode(text).length >= 200_000);
    const file = `${world.base}/big.txt`;
    Deno.writeTextFileSync(file, text);
    const link = `${world.base}/big-link.txt`;
    Deno.symlinkSync(file, link); // user input, not lisa's state: a symlink is fine
    const viaFile = await world.lisa([
      "session",
      "send",
      "--session",
      s.session,
      "--text-file",
      link,
      "--enter",
      "--confirm-timeout",
      "0",
      "--json",
    ]);
    strictEqual(viaFile.code, 0, viaFile.stdout + viaFile.stderr);
    strictEqual(viaFile.json?.textBytes, new TextEncoder().encode(text).length);
    const one = `${START}${text.replaceAll("\n", "\r")}${END}\r`;
    strictEqual(await recorded(record, one), one);
    const viaStdin = await world.lisa(
      [
        "session",
        "send",
        "--session",
        s.session,
        "--text",
        "-",
        "--enter",
        "--confirm-timeout",
        "0",
        "--json",
      ],
      { stdin: text },
    );
    strictEqual(viaStdin.code, 0, viaStdin.stdout + viaStdin.stderr);
    const two = one + one;
    const got = await recorded(record, two);
    strictEqual(got?.length, two.length);
    strictEqual(got, two);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("--text with --text-file is conflicting_options, a missing file is file_not_found, a missing session leaves nothing", async () => {
  const world = await makeWorld();
  try {
    const { s } = await recording(world);
    const base = ["session", "send", "--session", s.session, "--json"];
    const both = await world.lisaInProcess([...base, "--text", "x", "--text-file", "/dev/null"]);
    strictEqual(both.json?.errorCode, "conflicting_options");
    const missing = await world.lisaInProcess([...base, "--text-file", `${world.base}/nope`]);
    strictEqual(missing.code, 1);
    strictEqual(missing.json?.errorCode, "file_not_found");
    // A send to a name nobody spawned leaves no input lock behind.
    const nobody = await world.lisaInProcess(
      ["session", "send", "--session", "lisa-nope", "--text", "x", "--enter", "--json"],
    );
    strictEqual(nobody.json?.errorCode, "session_not_found");
    deepStrictEqual(artifactsOf(world, "lisa-nope"), []);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a session whose meta names no agent lisa knows takes text without the ready guard", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    // An older, foreign or damaged meta: no agent, then one lisa does not know.
    const metaPath = `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-meta.json`;
    for (const agent of [undefined, "gemini"]) {
      const meta = JSON.parse(Deno.readTextFileSync(metaPath));
      meta.agent = agent;
      Deno.writeTextFileSync(metaPath, JSON.stringify(meta), { mode: 0o600 });
      const r = await world.lisa(["session", "send", "--session", s.session, "--text", "hi"]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
    }
    strictEqual(
      await recorded(record, `${START}hi${END}${START}hi${END}`),
      `${START}hi${END}`.repeat(2),
    );
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("--keys too many for one tmux command is invalid_argument with nothing sent; as many as fit all arrive", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    // The guarded write hands tmux every key in one if-shell command, and tmux 3.3a refuses a
    // command line over its 16 KiB message ("command too long"): 5 000 keys used to end as
    // command_failed, 40 000 as internal_error ("Argument list too long" past Linux's 128 KiB
    // for one argument).
    for (const n of [5_000, 40_000]) {
      const keys = Array.from({ length: n }, () => "a").join(" ");
      const r = await world.lisa([
        "session",
        "send",
        "--session",
        s.session,
        "--keys",
        keys,
        "--json",
      ]);
      strictEqual(r.code, 1, r.stdout + r.stderr);
      strictEqual(r.json?.errorCode, "invalid_argument", `${n}: ${r.stdout.slice(0, 300)}`);
    }
    const fit = Array.from({ length: 3_000 }, (_, i) => "abc"[i % 3]).join(" ");
    const sent = await world.lisa([
      "session",
      "send",
      "--session",
      s.session,
      "--keys",
      fit,
      "--json",
    ]);
    strictEqual(sent.code, 0, sent.stdout.slice(0, 300) + sent.stderr);
    const want = fit.replaceAll(" ", "");
    strictEqual(await recorded(record, want), want);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a pane a person left in copy mode (scrolled back) gets the text, its Enter and keys, not copy mode", async () => {
  const world = await makeWorld();
  try {
    const { s, record } = await recording(world);
    const paneId = String(
      JSON.parse(
        Deno.readTextFileSync(
          `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-meta.json`,
        ),
      )
        .paneId,
    );
    for (const mode of ["copy-mode", "choose-tree"]) {
      const entered = await world.tmux(s.socketPath, [mode, "-t", paneId]);
      strictEqual(entered.code, 0, entered.stderr);
      const before = readIf(record) ?? "";
      // Copy mode took the Enter (copy-selection-and-cancel) and the keys as its own commands,
      // and send answered ok: the agent got the text without its Enter, and no `y`.
      const sent = await world.lisa([
        "session",
        "send",
        "--session",
        s.session,
        "--text",
        `hello-${mode}`,
        "--enter",
        "--confirm-timeout",
        "0",
        "--json",
      ]);
      strictEqual(sent.code, 0, sent.stdout + sent.stderr);
      await world.tmux(s.socketPath, [mode, "-t", paneId]);
      const keys = await world.lisa([
        "session",
        "send",
        "--session",
        s.session,
        "--keys",
        "y Enter",
        "--json",
      ]);
      strictEqual(keys.code, 0, keys.stdout + keys.stderr);
      const want = `${before}${START}hello-${mode}${END}\ry\r`;
      strictEqual(await recorded(record, want), want, mode);
    }
  } finally {
    await endStray();
    await world.dispose();
  }
});
