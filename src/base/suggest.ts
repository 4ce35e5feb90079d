/**
 * "Did you mean": the words a mistyped one most likely meant, by edit distance. Shared by the
 * command line (verbs, flags) and `send --keys` (key names).
 */

/** Edit distance with adjacent transpositions (`Escpe` → `Escape` is 1, `sned` → `send` 1). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * True when `distance` is small enough to be a typo of a `length`-letter word: at most 2, and
 * not a short word that merely shares its length with a name (`js` is not `ok`).
 */
export function closeEnough(distance: number, length: number): boolean {
  return distance <= 2 && distance < length - 1;
}

/**
 * The candidates `word` most likely meant, best first, at most `max`: the nearest ones close
 * enough to be a typo ({@link closeEnough}), then those it begins (`timeout` →
 * `timeout-seconds`, from 3 letters on). Empty when nothing is near: no suggestion beats a wrong
 * one.
 */
export function closest(word: string, candidates: readonly string[], max = 3): string[] {
  const scored = [...new Set(candidates)].filter((c) => c !== word).map((c) => ({
    c,
    d: editDistance(word, c),
  }));
  const near = scored.filter((s) => closeEnough(s.d, word.length));
  const best = Math.min(...near.map((s) => s.d));
  const out = near.filter((s) => s.d === best).map((s) => s.c).sort();
  const prefixed = word.length >= 3
    ? scored.filter((s) => s.c.startsWith(word)).sort((a, b) => a.d - b.d).map((s) => s.c)
    : [];
  return [...new Set([...out, ...prefixed])].slice(0, max);
}
