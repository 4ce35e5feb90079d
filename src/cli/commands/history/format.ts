/** Small renderers shared by the history verbs. */

/** "850ms", "12s", "3m 5s", "2h 4m"; "-" when unknown. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "-";
  if (ms < 1000) return `${ms}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** `text` indented by `pad`, each line. */
export function indent(text: string, pad = "    "): string {
  return text.split("\n").map((l) => pad + l).join("\n");
}

/** The token counts a TOKENS column and `history show` print. */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** A count for people: `950`, `12.3k`, `4.1M`. */
export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 100_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** All tokens of `u` (input, output, cache read and write) for a column; "-" when unknown. */
export function formatTokens(u: TokenCounts | null): string {
  if (u === null) return "-";
  return formatCount(u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens);
}

/** "in 10, out 5, cache read 100, cache write 3"; "unknown" when null. */
export function describeTokens(u: TokenCounts | null): string {
  if (u === null) return "unknown";
  return `in ${u.inputTokens}, out ${u.outputTokens}, cache read ${u.cacheReadTokens}, ` +
    `cache write ${u.cacheWriteTokens}`;
}
