/**
 * Session aliases (seed 004's human-readable ids): `{slug}-{adjective}-{noun}` from the bundled
 * word lists, unique among the sessions the runtime dir knows (every project's metas). The
 * alias is stored in the session's meta (`alias`) and shown by spawn, list and status.
 *
 * Two spawns racing in the same instant could draw the same pair (1 in 25,600 per project);
 * `resolve` then reports the alias as ambiguous and the full names keep working.
 */
import { ADJECTIVES, NOUNS } from "./words.ts";
import { goneSessions, knownSessions } from "./locate.ts";

/** Attempts at a random free pair before falling back to a numbered alias. */
const RANDOM_TRIES = 64;

/**
 * The aliases of every session whose meta is in `runtimeDir`, of every gone session whose
 * event log or worktree record (in `worktreeDir`) still names it (its alias still resolves to
 * it), and every session name an artifact there knows (an alias must not read as another
 * session's name either).
 */
export function knownAliases(runtimeDir: string, worktreeDir: string): Set<string> {
  const known = knownSessions(runtimeDir);
  const out = new Set<string>(known.names);
  const gone = goneSessions(known, worktreeDir);
  for (const k of [...known.metas, ...gone]) if (k.alias !== null) out.add(k.alias);
  return out;
}

/** A uniform random integer in [0, n). */
function randomIndex(n: number): number {
  const buf = new Uint32Array(1);
  crypto.getRandomValues(buf);
  return buf[0] % n;
}

/**
 * A new alias for a session of project `slug`, not in `taken`. `random(n)` picks an index in
 * [0, n) (injected by tests). After {@link RANDOM_TRIES} taken draws, the first free pair in
 * list order, then `…-2`, `…-3` suffixes: always returns.
 */
export function pickAlias(
  slug: string,
  taken: ReadonlySet<string>,
  random: (n: number) => number = randomIndex,
): string {
  const make = (a: string, n: string) => `${slug}-${a}-${n}`;
  for (let i = 0; i < RANDOM_TRIES; i++) {
    const alias = make(ADJECTIVES[random(ADJECTIVES.length)], NOUNS[random(NOUNS.length)]);
    if (!taken.has(alias)) return alias;
  }
  for (const a of ADJECTIVES) {
    for (const n of NOUNS) if (!taken.has(make(a, n))) return make(a, n);
  }
  const base = make(ADJECTIVES[0], NOUNS[0]);
  for (let k = 2;; k++) if (!taken.has(`${base}-${k}`)) return `${base}-${k}`;
}
