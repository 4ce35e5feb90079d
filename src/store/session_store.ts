/**
 * Persistence of a session's meta (`…-meta.json`, written once at spawn) and poll cache
 * (`…-state.json`, read-modify-written under the state lock). Both are written atomically.
 */
import { LisaError } from "../base/errors.ts";
import { AGENTS, MODES, type SessionMeta, type SessionStateFile } from "../base/types.ts";
import { readJsonIfExists, writeJsonAtomic } from "./atomic.ts";
import { withLock } from "./lock.ts";
import { lockPathFor, type SessionPaths } from "./runtime_dir.ts";

/** The paths this module needs (a subset of {@link SessionPaths}). */
export type StorePaths = Pick<SessionPaths, "meta" | "state">;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Meta fields holding text, and those that may also be null. */
const META_TEXT = [
  "session",
  "projectRoot",
  "projectHash",
  "socketPath",
  "startCmd",
  "runId",
  "alias",
  "parentRunId",
] as const;
const META_TEXT_OR_NULL = ["parentSession", "prompt", "agentSessionId"] as const;
const WORKTREE_TEXT = ["path", "branch", "base", "baseCommit", "repoRoot"] as const;

/**
 * `value` with every field lisa knows but of another type than lisa writes left out (an older,
 * foreign or damaged meta): readers then see the fact as absent, which they all handle, instead
 * of a number where a path belongs. An agent or mode lisa does not know, and a creation time that
 * is not one, are left out too.
 * Unknown fields stay. Pure.
 */
export function normalizeMeta(value: Record<string, unknown>): SessionMeta {
  const out: Record<string, unknown> = { ...value };
  const drop = (key: string, ok: (v: unknown) => boolean) => {
    if (key in out && !ok(out[key])) delete out[key];
  };
  const text = (v: unknown) => typeof v === "string";
  for (const key of META_TEXT) drop(key, text);
  for (const key of META_TEXT_OR_NULL) drop(key, (v) => v === null || text(v));
  drop("createdAt", (v) => text(v) && !Number.isNaN(Date.parse(v as string)));
  drop("agent", (v) => (AGENTS as readonly unknown[]).includes(v));
  drop("mode", (v) => (MODES as readonly unknown[]).includes(v));
  drop("hooks", (v) => typeof v === "boolean");
  drop("agentVersion", text);
  drop("commandOnly", (v) => typeof v === "boolean");
  drop("nestedBypass", (v) => Array.isArray(v) && v.every(text));
  drop("worktree", (v) => isPlainObject(v) && WORKTREE_TEXT.every((k) => text(v[k])));
  // A damaged id would target no pane at all (or, unanchored, another one): left out, so the
  // session's first pane is targeted as for metas written before the ids.
  drop("windowId", (v) => text(v) && /^@\d+$/.test(v as string));
  drop("paneId", (v) => text(v) && /^%\d+$/.test(v as string));
  return out as unknown as SessionMeta;
}

/**
 * The session's meta, or undefined when it has none. Throws `meta_unreadable` when the file
 * exists but cannot be read (a symlink, an I/O error) or is not a JSON object. Fields of the
 * wrong type are left out ({@link normalizeMeta}).
 */
export function readMeta(paths: Pick<StorePaths, "meta">): SessionMeta | undefined {
  let value: unknown;
  try {
    value = readJsonIfExists<unknown>(paths.meta);
  } catch (error) {
    throw new LisaError(
      "meta_unreadable",
      `Cannot read session meta "${paths.meta}": ${(error as Error).message}`,
      { cause: error, details: { path: paths.meta } },
    );
  }
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    throw new LisaError("meta_unreadable", `Session meta "${paths.meta}" is not a JSON object`, {
      details: { path: paths.meta },
    });
  }
  return normalizeMeta(value);
}

/** Writes the session's meta atomically (0600). Throws I/O errors. */
export function writeMeta(paths: Pick<StorePaths, "meta">, meta: SessionMeta): void {
  writeJsonAtomic(paths.meta, meta);
}

/** A poll cache with nothing known yet. */
export function emptyState(): SessionStateFile {
  return {
    pollCount: 0,
    hasEverBeenActive: false,
    agentPid: null,
    agentStartTime: null,
    lastScanAtMs: null,
    cpuSamples: [],
    outputHash: null,
    outputChangedAtMs: null,
    lastInputAtMs: null,
    lastState: null,
    lastReason: null,
    lastSnapshotEventAtMs: null,
    lastActiveAtMs: null,
    outputWritten: false,
    lastBusyAtMs: null,
    progressMarkAtMs: null,
    progressMarkTicks: null,
  };
}

/**
 * Fills what a stored state lacks (an older lisa, a hand edit) from {@link emptyState}, and
 * drops fields of the wrong kind, so callers can trust every field's type.
 */
function normalizeState(value: unknown): SessionStateFile {
  const state = emptyState();
  if (!isPlainObject(value)) return state;
  const out: Record<string, unknown> = { ...value };
  for (const [key, neutral] of Object.entries(state)) {
    const v = out[key];
    const ok = Array.isArray(neutral)
      ? Array.isArray(v)
      : neutral === null
      ? v === null || typeof v === "number" || typeof v === "string"
      : typeof v === typeof neutral;
    if (!ok) out[key] = neutral;
  }
  return out as unknown as SessionStateFile;
}

/** The session's poll cache; a missing, unreadable or corrupt file gives {@link emptyState}. */
export function readState(paths: Pick<StorePaths, "state">): SessionStateFile {
  try {
    return normalizeState(readJsonIfExists<unknown>(paths.state));
  } catch {
    return emptyState();
  }
}

/**
 * Read-modify-write of the poll cache under the exclusive lock on `lockPathFor(paths.state)`:
 * `fn` gets the current state and returns the next one (or mutates it and returns nothing); the
 * result is written atomically and returned. `fn` must only compute: no tmux or agent calls
 * while the lock is held. Throws `LockBusyError` after `lockTimeoutMs`, and I/O errors.
 */
export async function updateState(
  paths: Pick<StorePaths, "state">,
  lockTimeoutMs: number,
  fn: (state: SessionStateFile) => SessionStateFile | void,
): Promise<SessionStateFile> {
  return await withLock(lockPathFor(paths.state), { timeoutMs: lockTimeoutMs }, () => {
    const current = readState(paths);
    const next = fn(current) ?? current;
    writeJsonAtomic(paths.state, next);
    return next;
  });
}
