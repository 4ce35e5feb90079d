/** Durations on the command line (`--since 2h`, `--older-than 7d`). */
import { UsageError } from "./errors.ts";

/** The earliest time a Date holds. */
const EARLIEST_MS = -8.64e15;

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses `--since`: a duration back from `nowMs` (`90s`, `15m`, `2h`, `1d`) or an ISO time.
 * Throws `invalid_argument` for anything else.
 */
export function parseSince(text: string, nowMs: number): number {
  const t = text.trim();
  const m = /^(\d+(?:\.\d+)?)([smhd])$/.exec(t);
  // Further back than a Date can go is "since the earliest date": every record.
  if (m) return Math.max(nowMs - Number(m[1]) * UNIT_MS[m[2]], EARLIEST_MS);
  const at = /^\d{4}-\d{2}-\d{2}/.test(t) ? Date.parse(t) : NaN;
  if (Number.isFinite(at)) return at;
  throw new UsageError(`--since expects a duration like 15m or 2h, or an ISO time; got "${text}"`);
}

/**
 * Parses a duration (`0s`, `90s`, `15m`, `12h`, `7d`, `1w`; a bare `0`); throws
 * `invalid_argument` otherwise. A bare number other than 0 is refused: `prune --older-than 7`
 * read as 7 seconds pruned what its user meant to keep for a week.
 */
export function parseDuration(text: string, flag = "--older-than"): number {
  const m = /^(\d+(?:\.\d+)?)([smhdw]?)$/.exec(text.trim());
  if (m === null || (m[2] === "" && Number(m[1]) !== 0)) {
    const hint = m === null ? "" : ` (give a unit: ${m[1]}d for days, ${m[1]}s for seconds)`;
    throw new UsageError(
      `${flag} expects a duration like 7d, 12h, 30m or 0s; got "${text}"${hint}`,
    );
  }
  const unit = m[2] === "" ? "s" : m[2];
  return Number(m[1]) * (unit === "w" ? 7 * UNIT_MS.d : UNIT_MS[unit]);
}
