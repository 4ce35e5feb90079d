/**
 * `--cleanup-all-hashes` (spawn, kill): the files sessions of a name left under other project
 * hashes (the older Go lisa's option: a moved project gets a new hash, and its old files stay
 * behind). Only what gone sessions left: another project's session of the same name that tmux
 * still has is that project's, and keeps its files (meta, state, hooks) whatever this one does.
 */
import type { Deps } from "../../base/deps.ts";
import { joinPath } from "../../base/paths.ts";
import {
  OUTPUT_ARTIFACT_RE,
  SESSION_ARTIFACT_RE,
  sessionPaths,
  SOCKET_RE,
} from "../../store/runtime_dir.ts";
import { hasSession } from "../../tmux/sessions.ts";
import { Tmux } from "../../tmux/tmux.ts";
import { removeSessionArtifacts } from "./artifacts.ts";
import { tryReadMeta } from "./locate.ts";

/** The project hashes other than `exceptHash` under which `runtimeDir` has files of `session`. */
function otherHashes(runtimeDir: string, session: string, exceptHash: string): string[] {
  const hashes = new Set<string>();
  try {
    for (const e of Deno.readDirSync(runtimeDir)) {
      const m = SESSION_ARTIFACT_RE.exec(e.name) ?? OUTPUT_ARTIFACT_RE.exec(e.name);
      if (m !== null && m[2] === session && m[1] !== exceptHash) hashes.add(m[1]);
    }
  } catch { /* no runtime dir: nothing left anywhere */ }
  return [...hashes].sort();
}

/** The lisa sockets of project hash `hash` in `socketDir`. */
function socketsOf(socketDir: string, hash: string): string[] {
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(socketDir)) {
      if (SOCKET_RE.exec(e.name)?.[2] === hash) out.push(joinPath(socketDir, e.name));
    }
  } catch { /* no socket dir */ }
  return out;
}

/**
 * Removes the files of `session` under every project hash but `exceptHash` whose session of
 * that name no server has (its meta's server, and the hash's servers in the socket dir); a
 * server that cannot be asked keeps them. The event logs and hook logs stay (history may not
 * have read a hook log yet; its next read takes it). Returns the removed paths.
 */
export async function removeLeftUnderOtherHashes(
  deps: Deps,
  runtimeDir: string,
  session: string,
  exceptHash: string,
): Promise<string[]> {
  const removed: string[] = [];
  const socketDir = deps.config.tmuxSocketDir ?? runtimeDir;
  for (const hash of otherHashes(runtimeDir, session, exceptHash)) {
    const meta = tryReadMeta(sessionPaths(runtimeDir, hash, session).meta);
    const sockets = new Set(socketsOf(socketDir, hash));
    if (meta?.socketPath) sockets.add(meta.socketPath);
    let held = false;
    for (const socket of sockets) {
      try {
        held = await hasSession(new Tmux(deps.runner, socket), session);
      } catch {
        held = true;
      }
      if (held) break;
    }
    if (!held) {
      removed.push(...removeSessionArtifacts(runtimeDir, session, { hash, keepHooks: true }));
    }
  }
  return removed;
}
