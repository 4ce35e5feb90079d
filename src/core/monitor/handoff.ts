/**
 * `session handoff` and `session context-pack` (seed 003): compact payloads an orchestrator
 * hands to another loop or agent. One status computation with its pane capture (a snapshot),
 * the recent events, the suggested next action, and a summary of the recent output; a cursor
 * file makes the output part incremental (only what appeared since the previous handoff).
 * context-pack renders the same facts as one text block that fits a token budget.
 */
import type { Deps } from "../../base/deps.ts";
import type { SessionStateName } from "../../base/types.ts";
import { readEvents } from "../../store/events.ts";
import { locateSession } from "../session/mod.ts";
import { parseOffset, readCursorFile, writeCursorFile } from "../capture/mod.ts";
import { nextAction } from "../status/mod.ts";
import { snapshotSession } from "./snapshot.ts";

/** Default number of events in a handoff. */
export const DEFAULT_HANDOFF_EVENTS = 5;
/** Lines of output the summary keeps. */
export const SUMMARY_LINES = 12;

/** One event as a handoff shows it. */
export interface RecentEvent {
  at: string;
  type: string;
  state: string | null;
  reason: string;
}

/** Options of {@link handoffSession}. */
export interface HandoffOptions {
  session: string;
  projectRoot?: string;
  events?: number;
  /** Output since this offset token (default: the cursor file's, else the last lines). */
  deltaFrom?: string;
  cursorFile?: string;
  /** Lines of pane text read when there is no delta (default 200). */
  lines?: number;
}

/** The handoff payload. */
export interface Handoff {
  session: string;
  status: string;
  sessionState: SessionStateName;
  reason: string;
  waitingFor: string | null;
  exitCode: number | null;
  nextAction: string;
  nextOffset: string | null;
  /** The last non-blank lines of the (delta) output, joined by "\n". */
  summary: string;
  recent: RecentEvent[];
  /** With a delta: its start, the offset for the next one, and how many lines it held. */
  deltaFrom?: string;
  nextDeltaOffset?: string | null;
  deltaCount?: number;
  cursorFile?: string;
  /** The (delta) output's lines, for context-pack (not printed by handoff). */
  output: string[];
}

/** Builds a handoff. Throws what snapshot throws, and the cursor file errors. */
export async function handoffSession(deps: Deps, options: HandoffOptions): Promise<Handoff> {
  // A cursor file holding something else (garbage, another verb's cursor) resets the delta.
  const saved = options.cursorFile === undefined
    ? undefined
    : readCursorFile(deps, options.cursorFile);
  const deltaFrom = options.deltaFrom ??
    (saved !== undefined && parseOffset(saved) !== undefined ? saved : undefined);
  const snap = await snapshotSession(deps, {
    session: options.session,
    projectRoot: options.projectRoot,
    lines: options.lines,
    deltaFrom,
  });
  const loc = await locateSession(deps, options.session, options.projectRoot);
  const events = await readEvents(loc.paths.events, deps.config, {
    limit: options.events ?? DEFAULT_HANDOFF_EVENTS,
  }).catch(() => []);
  const text = snap.capture?.text ?? "";
  const output = text === "" ? [] : text.split("\n");
  const meaningful = output.filter((l) => l.trim() !== "");
  const out: Handoff = {
    session: snap.session,
    status: snap.status,
    sessionState: snap.sessionState,
    reason: snap.classificationReason,
    waitingFor: snap.waitingFor,
    exitCode: snap.exitCode,
    nextAction: nextAction(snap.sessionState, snap.waitingFor),
    nextOffset: snap.nextOffset,
    summary: meaningful.slice(-SUMMARY_LINES).join("\n"),
    recent: events.map((e) => ({
      at: e.at,
      type: e.type,
      state: e.state ?? null,
      reason: e.reason,
    })),
    output,
  };
  if (deltaFrom !== undefined) {
    out.deltaFrom = deltaFrom;
    out.nextDeltaOffset = snap.nextOffset;
    out.deltaCount = output.length;
  }
  if (options.cursorFile !== undefined && snap.nextOffset !== null) {
    writeCursorFile(deps, options.cursorFile, snap.nextOffset);
    out.cursorFile = options.cursorFile;
  }
  return out;
}

/** Context-pack strategies: the share of the budget the output tail may use, events kept. */
const STRATEGIES = {
  terse: { outputShare: 0.25, events: 3 },
  balanced: { outputShare: 0.6, events: 5 },
  full: { outputShare: 0.8, events: 10 },
} as const;

/** One of the strategies. */
export type PackStrategy = keyof typeof STRATEGIES;

/** Characters per token of the budget's estimate. */
export const CHARS_PER_TOKEN = 4;

/** The context-pack payload. */
export interface ContextPack {
  session: string;
  sessionState: SessionStateName;
  status: string;
  reason: string;
  nextAction: string;
  nextOffset: string | null;
  strategy: PackStrategy;
  pack: string;
  tokenBudget: number;
  /** Estimated tokens of `pack` (characters / 4, rounded up). */
  tokens: number;
  /** True when output or events were left out to fit the budget. */
  truncated: boolean;
}

/**
 * Renders a handoff as one text block within `tokenBudget` (estimated at 4 characters a token):
 * the state line, the next action, recent events, then as much of the output's tail as the
 * strategy's share allows. Pure.
 */
export function packContext(
  h: Handoff,
  tokenBudget: number,
  strategy: PackStrategy = "balanced",
): ContextPack {
  const budget = tokenBudget * CHARS_PER_TOKEN;
  const s = STRATEGIES[strategy];
  const head = [
    `session: ${h.session}`,
    `state: ${h.sessionState} (${h.reason})${h.exitCode === null ? "" : ` exit ${h.exitCode}`}`,
    `next: ${h.nextAction}`,
  ];
  let truncated = false;
  const events = h.recent.slice(-s.events);
  if (events.length < h.recent.length) truncated = true;
  const eventLines = events.map((e) => `- ${e.at} ${e.type} ${e.state ?? "-"} (${e.reason})`);
  let text = [...head, ...(eventLines.length ? ["events:", ...eventLines] : [])].join("\n");
  while (text.length > budget && eventLines.length > 0) {
    eventLines.shift();
    truncated = true;
    text = [...head, ...(eventLines.length ? ["events:", ...eventLines] : [])].join("\n");
  }
  const room = Math.min(Math.floor(budget * s.outputShare), budget - text.length - 8);
  const lines = h.output.filter((l) => l.trim() !== "");
  const tail: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (used + lines[i].length + 1 > room) {
      truncated = true;
      break;
    }
    tail.unshift(lines[i]);
    used += lines[i].length + 1;
  }
  if (tail.length > 0) text += `\noutput:\n${tail.join("\n")}`;
  if (text.length > budget) {
    text = text.slice(0, Math.max(0, budget));
    truncated = true;
  }
  return {
    session: h.session,
    sessionState: h.sessionState,
    status: h.status,
    reason: h.reason,
    nextAction: h.nextAction,
    nextOffset: h.nextOffset,
    strategy,
    pack: text,
    tokenBudget,
    tokens: Math.ceil(text.length / CHARS_PER_TOKEN),
    truncated,
  };
}
