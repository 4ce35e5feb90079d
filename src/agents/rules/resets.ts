/**
 * Turns the reset time an agent shows with a usage limit (`resets 8:50pm (UTC)`, `try again at
 * 9:15 PM`, `resets in 2h 5m`, `Nov 26, 8:50pm`) into an ISO instant. Pure: the current time is
 * an argument.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const UNIT_SECONDS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86400,
  day: 86400,
  days: 86400,
};

/** Offset of `zone` from UTC at `atMs`, in ms (local = UTC + offset); null for unknown zones. */
function zoneOffsetMs(zone: string, atMs: number): number | null {
  if (/^(utc|gmt|z)$/i.test(zone)) return 0;
  try {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    }).formatToParts(new Date(atMs));
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? NaN);
    const local = Date.UTC(
      get("year"),
      get("month") - 1,
      get("day"),
      get("hour"),
      get("minute"),
      get("second"),
    );
    const offset = local - Math.floor(atMs / 1000) * 1000;
    return Number.isFinite(offset) ? offset : null;
  } catch {
    return null;
  }
}

/**
 * The instant `text` names, as an ISO string, or null when it cannot be read. A time of day
 * without a date is the next such time after `nowMs`; without a zone it is taken as UTC (what
 * the agents print on servers, which run in UTC); a zone in parentheses may be any IANA name.
 */
export function resolveResetsAt(text: string, nowMs: number): string | null {
  const t = text.trim().toLowerCase().replace(/[.\s]+$/, "");
  // Relative: "in 2h 5m", "in 45 minutes", "2 hours 3 minutes".
  const rel = /^(?:in\s+)?((?:\d+(?:\.\d+)?\s*[a-z]+[\s,]*(?:and\s+)?)+)$/.exec(t);
  if (rel) {
    let seconds = 0;
    for (const m of rel[1].matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)) {
      const unit = UNIT_SECONDS[m[2]];
      if (unit === undefined) return null;
      seconds += Number(m[1]) * unit;
    }
    return new Date(nowMs + seconds * 1000).toISOString();
  }
  // Absolute: "[Mon D,] H[:MM][am|pm] [(Zone)]".
  const abs =
    /^(?:at\s+)?(?:([a-z]{3})[a-z]*\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(\d{4}),?\s+)?(?:at\s+)?)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\s*(?:\(([^)]+)\)|([a-z]{3,4}))?$/
      .exec(t);
  if (!abs) return null;
  const [, mon, day, yyyy, hh, mm, ampm, zoneParen, zoneWord] = abs;
  let hour = Number(hh);
  const minute = mm === undefined ? 0 : Number(mm);
  if (hour > 23 || minute > 59) return null;
  if (ampm !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = hour % 12 + (ampm === "pm" ? 12 : 0);
  }
  const zone = (zoneParen ?? zoneWord ?? "UTC").trim();
  const offset = zoneOffsetMs(zone, nowMs);
  if (offset === null) return null;
  const localNow = new Date(nowMs + offset);
  let year = yyyy === undefined ? localNow.getUTCFullYear() : Number(yyyy);
  let month = localNow.getUTCMonth();
  let date = localNow.getUTCDate();
  if (mon !== undefined) {
    const index = MONTHS.indexOf(mon);
    if (index < 0) return null;
    month = index;
    date = Number(day);
  }
  let local = Date.UTC(year, month, date, hour, minute);
  if (mon === undefined && local <= nowMs + offset) local += 86_400_000;
  if (mon !== undefined && yyyy === undefined && local < nowMs + offset - 86_400_000) {
    year += 1;
    local = Date.UTC(year, month, date, hour, minute);
  }
  return new Date(local - offset).toISOString();
}
