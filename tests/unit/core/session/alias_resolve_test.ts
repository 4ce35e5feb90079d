/** Aliases (unique, from the bundled words) and resolving what `--session` names. */
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { ADJECTIVES, NOUNS } from "../../../../src/core/session/words.ts";
import { knownAliases, pickAlias } from "../../../../src/core/session/alias.ts";
import { aliasInEventLog } from "../../../../src/core/session/gone.ts";
import {
  goneSessions,
  type KnownSession,
  knownSessions,
  resolveIn,
} from "../../../../src/core/session/locate.ts";
import { LisaError } from "../../../../src/base/errors.ts";

Deno.test("the word lists hold at least 150 distinct lowercase words each", () => {
  for (const list of [ADJECTIVES, NOUNS]) {
    ok(list.length >= 150, String(list.length));
    strictEqual(new Set(list).size, list.length);
    ok(list.every((w) => /^[a-z]+$/.test(w)));
  }
});

Deno.test("an alias is slug-adjective-noun and never one already taken", () => {
  const a = pickAlias("proj", new Set());
  ok(/^proj-[a-z]+-[a-z]+$/.test(a), a);
  // A random source that always draws the same pair: the taken pair is skipped.
  const taken = new Set([`proj-${ADJECTIVES[0]}-${NOUNS[0]}`]);
  const b = pickAlias("proj", taken, () => 0);
  ok(!taken.has(b), b);
  strictEqual(b, `proj-${ADJECTIVES[0]}-${NOUNS[1]}`);
  // Every pair taken: a numbered alias, still unique.
  const all = new Set<string>();
  for (const x of ADJECTIVES) for (const y of NOUNS) all.add(`p-${x}-${y}`);
  const c = pickAlias("p", all, () => 0);
  ok(!all.has(c) && c.startsWith("p-"), c);
});

Deno.test("aliases drawn for many sessions are all distinct", () => {
  const taken = new Set<string>();
  for (let i = 0; i < 2000; i++) taken.add(pickAlias("x", taken));
  strictEqual(taken.size, 2000);
});

function known(list: [string, string | null][], extra: string[] = []) {
  const metas: KnownSession[] = list.map(([session, alias]) => ({
    session,
    alias,
    hash: "00000000",
    path: `/x/${session}`,
  }));
  return { metas, names: new Set([...list.map(([s]) => s), ...extra]) };
}

const K = known([
  ["lisa-proj-261125-101010-1-claude-interactive", "proj-brave-otter"],
  ["lisa-proj-261125-101011-2-codex-exec", "proj-brisk-heron"],
  ["lisa-custom-one", null],
], ["lisa-gone-1"]);

Deno.test("resolve: an exact name, an alias, a unique prefix of an alias", () => {
  strictEqual(resolveIn(K, "lisa-custom-one"), "lisa-custom-one");
  strictEqual(resolveIn(K, "proj-brave-otter"), "lisa-proj-261125-101010-1-claude-interactive");
  strictEqual(resolveIn(K, "proj-brisk"), "lisa-proj-261125-101011-2-codex-exec");
  // A full name is never matched by prefix: what names no session resolves to nothing.
  strictEqual(resolveIn(K, "lisa-proj-261125-101010"), null);
  strictEqual(resolveIn(K, "lisa-cus"), null);
  // A name only an event log still knows (a killed session) stands for itself, never a prefix.
  strictEqual(resolveIn(K, "lisa-gone-1"), "lisa-gone-1");
});

Deno.test("resolve: nothing matching gives null; an ambiguous value lists the candidates", () => {
  strictEqual(resolveIn(K, "nope"), null);
  strictEqual(resolveIn(K, ""), null);
  const e = throws(() => resolveIn(K, "proj-br"), (err: unknown) => {
    ok(err instanceof LisaError);
    strictEqual(err.code, "session_ambiguous");
    strictEqual(err.exitCode, 1);
    deepStrictEqual(
      (err.details.candidates as { alias: string }[]).map((c) => c.alias),
      ["proj-brave-otter", "proj-brisk-heron"],
    );
    ok(err.message.includes("proj-brave-otter") && err.message.includes("proj-brisk-heron"));
    return true;
  });
  strictEqual(e, undefined);
  strictEqual(resolveIn(K, "lisa-proj"), null);
});

Deno.test("resolve: a full name only exactly (a pruned lisa-w-1 is not lisa-w-10), aliases by prefix", () => {
  const k = known([["lisa-w-10", "proj-calm-otter"]]);
  strictEqual(resolveIn(k, "lisa-w-1"), null);
  strictEqual(resolveIn(k, "proj-calm"), "lisa-w-10");
  strictEqual(resolveIn(k, "lisa-w-10"), "lisa-w-10");
  // A project slugged "lisa" has aliases shaped like names: a gone lisa-calm is not lisa-calm-otter.
  const l = known([["lisa-lisa-261125-101010-1-claude-interactive", "lisa-calm-otter"]]);
  strictEqual(resolveIn(l, "lisa-calm"), null);
  strictEqual(resolveIn(l, "lisa-calm-otter"), l.metas[0].session);
});

/** A temp runtime dir and worktree dir, removed after `fn`. */
async function withDirs(fn: (run: string, wt: string) => void | Promise<void>): Promise<void> {
  const base = Deno.makeTempDirSync({ prefix: "lisa-alias-" });
  try {
    Deno.mkdirSync(`${base}/run`, { mode: 0o700 });
    Deno.mkdirSync(`${base}/wt/0000000a`, { recursive: true });
    await fn(`${base}/run`, `${base}/wt`);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
}

function event(session: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ at: "2026-11-27T00:00:00Z", type: "lifecycle", session, ...fields });
}

Deno.test("a killed session's alias is read from its event log: the first event, else the newest that has one", () =>
  withDirs((run) => {
    const log = `${run}/.lisa-0000000a-session-lisa-a-events.jsonl`;
    Deno.writeTextFileSync(
      log,
      [
        event("lisa-a", { reason: "spawn_success", alias: "p-calm-otter" }),
        event("lisa-a", { reason: "killed" }),
      ].join("\n") + "\n",
    );
    strictEqual(aliasInEventLog(log), "p-calm-otter");
    // Compacted from its tail (the spawn event dropped, the file past one read): kill's event.
    const filler = Array.from({ length: 400 }, (_, i) => event("lisa-a", { reason: `t${i}` }));
    Deno.writeTextFileSync(
      log,
      [...filler, event("lisa-a", { reason: "killed", alias: "p-calm-otter" })].join("\n") +
        "\n",
    );
    ok(Deno.statSync(log).size > 16 * 1024);
    strictEqual(aliasInEventLog(log), "p-calm-otter");
    // No alias anywhere, garbage, a symlink, a missing file: null, never a throw.
    Deno.writeTextFileSync(log, filler.join("\n") + "\nnot json\n");
    strictEqual(aliasInEventLog(log), null);
    Deno.symlinkSync(log, `${log}.link`);
    strictEqual(aliasInEventLog(`${log}.link`), null);
    strictEqual(aliasInEventLog(`${run}/missing`), null);
  }));

Deno.test("an alias that still names a gone session (event log, worktree record) is never drawn again", () =>
  withDirs((run, wt) => {
    Deno.writeTextFileSync(
      `${run}/.lisa-0000000a-session-lisa-a-events.jsonl`,
      event("lisa-a", { reason: "spawn_success", alias: "p-calm-otter" }) + "\n",
    );
    Deno.writeTextFileSync(
      `${wt}/0000000a/lisa-b.lisa.json`,
      JSON.stringify({
        session: "lisa-b",
        alias: "p-brave-heron",
        projectRoot: "/p",
        projectHash: "0000000a",
        socketPath: "/s",
        createdAt: "2026-11-27T00:00:00Z",
        worktree: {
          path: "/w",
          branch: "lisa/p-brave-heron",
          base: "HEAD",
          baseCommit: "abc",
          repoRoot: "/p",
        },
      }),
    );
    const taken = knownAliases(run, wt);
    ok(taken.has("p-calm-otter") && taken.has("p-brave-heron"), [...taken].join(","));
    const known = knownSessions(run);
    deepStrictEqual(
      goneSessions(known, wt).map((g) => [g.session, g.alias, g.hash]),
      [["lisa-a", "p-calm-otter", "0000000a"], ["lisa-b", "p-brave-heron", "0000000a"]],
    );
  }));
