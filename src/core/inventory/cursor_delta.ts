/**
 * `session list --delta-json --cursor-file PATH`: what changed in the session list since the
 * snapshot kept in PATH (sessions added, removed, and whose state/liveness changed), then the
 * new snapshot is written there. Without a cursor file every session counts as added. The file
 * holds `{"v":1,"items":{name: key}}`; an unreadable or foreign one resets the delta.
 */
import type { Deps } from "../../base/deps.ts";
import { resolvePath } from "../../base/paths.ts";
import { LisaError, UsageError } from "../../base/errors.ts";
import { writeFileAtomic } from "../../store/atomic.ts";

/** One row as the delta compares it. */
export interface DeltaItem {
  session: string;
  state: string | null;
  alive: boolean;
}

/** The delta part of the payload. */
export interface ListDelta {
  added: string[];
  removed: string[];
  changed: { session: string; from: string; to: string }[];
  /** True when there was no usable previous snapshot (everything is `added`). */
  reset: boolean;
  cursorFile: string | null;
}

function keyOf(item: DeltaItem): string {
  return item.alive ? (item.state ?? "alive") : `exited:${item.state ?? "-"}`;
}

function readSnapshot(path: string): Record<string, string> | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return undefined;
  }
  if (info.isSymlink || !info.isFile) {
    throw new UsageError(`Cursor file "${path}" is not a regular file`, "cursor_file_unsafe", {
      cursorFile: path,
    });
  }
  try {
    const doc = JSON.parse(Deno.readTextFileSync(path));
    if (doc?.v === 1 && doc.items && typeof doc.items === "object") return doc.items;
  } catch { /* a cursor of another verb, or garbage: reset */ }
  return undefined;
}

/** Computes the delta of `items` against the cursor file and rewrites the file. */
export function listDelta(deps: Deps, items: readonly DeltaItem[], cursorFile?: string): ListDelta {
  const path = cursorFile === undefined ? undefined : resolvePath(deps.cwd, cursorFile);
  const before = path === undefined ? undefined : readSnapshot(path);
  const now: Record<string, string> = {};
  for (const item of items) now[item.session] = keyOf(item);
  const prev = before ?? {};
  const delta: ListDelta = {
    added: Object.keys(now).filter((s) => !(s in prev)),
    removed: Object.keys(prev).filter((s) => !(s in now)),
    changed: Object.keys(now)
      .filter((s) => s in prev && prev[s] !== now[s])
      .map((s) => ({ session: s, from: prev[s], to: now[s] })),
    reset: before === undefined,
    cursorFile: path ?? null,
  };
  if (path !== undefined) {
    try {
      writeFileAtomic(path, JSON.stringify({ v: 1, items: now }) + "\n");
    } catch (error) {
      throw new LisaError("cursor_file_error", `Cannot write cursor file "${path}": ${error}`, {
        cause: error,
        details: { cursorFile: path },
      });
    }
  }
  return delta;
}
