/**
 * User text never steers tmux: the key ";" is not a command separator, the key "-" is not a
 * flag, a word that is no key name is refused before tmux, a `#(…)` in the project path is not run, and a name tmux
 * would rename is refused.
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, readIf, spawn, type Spawned, waitPane } from "./lifecycle_helpers.ts";

async function exists(world: Awaited<ReturnType<typeof makeWorld>>, s: Spawned, root?: string) {
  const args = ["session", "exists", "--session", s.session];
  return (await world.lisaInProcess(root ? [...args, "--project-root", root] : args)).code === 0;
}

Deno.test("send --keys types the keys ';' and '-' literally, and refuses words that are no keys", async () => {
  const world = await makeWorld();
  try {
    const a = await spawn(world, ["--command", "cat", "--session", "lisa-esc-a"]);
    const b = await spawn(world, ["--command", "cat", "--session", "lisa-esc-b"]);
    await waitPane(world, a, "__LISA_SESSION_START__");
    const send = (keys: string) =>
      world.lisaInProcess(["session", "send", "--session", a.session, "--keys", keys, "--json"]);
    // Each word is a key; the key ";" must not end the send-keys command (tmux splits commands
    // at a word ending in ";"), nor may the key "-" be read as a flag.
    strictEqual((await send("x ; y ; - z")).code, 0);
    await waitPane(world, a, "x;y;-z");
    ok(await exists(world, a), "the server survived");
    // Words that are no key names never reach tmux: no `kill-server`, no `-t` retargeting.
    for (const keys of ["abc; kill-server", `-t =${b.session}: hello`]) {
      const r = await send(keys);
      strictEqual(r.json?.errorCode, "invalid_key", keys);
    }
    ok(await exists(world, a), "the server survived");
    ok(await exists(world, b));
    const paneB = await world.lisaInProcess(["session", "capture", "--session", b.session]);
    ok(!paneB.stdout.includes("hello"), paneB.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a project root with ';' and '#(…)' in its name is used as is and runs nothing", async () => {
  const world = await makeWorld();
  try {
    const root = `${world.base}/we;ird #(touch ${world.base}/PWNED) dir;`;
    await Deno.mkdir(root, { recursive: true });
    const r = await world.lisaInProcess([
      "session",
      "spawn",
      "--project-root",
      root,
      "--command",
      'pwd; echo "root=$LISA_PROJECT_ROOT"; sleep 30',
      "--json",
    ]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    const s = r.json as unknown as Spawned;
    const text = await waitPane({ ...world, projectRoot: root }, s, `root=${root}`);
    ok(text.includes(`\n${root}\n`) || text.startsWith(`${root}\n`), text);
    await new Promise((resolve) => setTimeout(resolve, 300));
    strictEqual(readIf(`${world.base}/PWNED`), undefined);
    ok(await exists(world, s, root));
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a session name with '.' is refused instead of being renamed by tmux", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess([
      "session",
      "spawn",
      "--command",
      "true",
      "--session",
      "lisa-a.b",
      "--json",
    ]);
    strictEqual(r.code, 1);
    strictEqual(r.json?.errorCode, "invalid_session_name");
  } finally {
    await world.dispose();
  }
});
