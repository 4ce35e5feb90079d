/**
 * Ending a process group whole: a child lisa ran in a group of its own (the runner's `group`),
 * with everything it started. Also a group recorded by a lisa that was killed (SIGKILL) before
 * it could end it, found again by its id and its leader's start time.
 */
import { groupMembers, readStat } from "./table.ts";
import type { RecordedGroup } from "../base/types.ts";

export type { RecordedGroup };

/** How long a process group gets between SIGTERM and SIGKILL (git removes its lock files). */
const GROUP_GRACE_MS = 2000;
/** How often a process group being ended is looked at. */
const GROUP_POLL_MS = 25;

/** Sends `signal` to process group `pgid`; false when none of it is left. */
function signalGroup(pgid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Waits up to `ms` for process group `pgid` to have no live member; true when it has none. */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const members = groupMembers(pgid);
    // Without /proc, a signal that changes nothing (SIGCONT) tells whether any member is left.
    if (members === null ? !signalGroup(pgid, "SIGCONT") : members.length === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
  }
}

/** Ends process group `pgid`: SIGTERM, then SIGKILL after a grace; resolves once it is gone. */
export async function endGroup(pgid: number): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  // A stopped member acts on SIGTERM only once continued.
  signalGroup(pgid, "SIGCONT");
  if (await groupGone(pgid, GROUP_GRACE_MS)) return;
  signalGroup(pgid, "SIGKILL");
  await groupGone(pgid, GROUP_GRACE_MS);
}

/** The record of the group whose leader is `pid` (just started, so still alive). */
export function recordGroup(pid: number): RecordedGroup {
  return { pgid: pid, startTime: readStat(pid)?.startTime ?? null };
}

/**
 * Ends the recorded group `group` if any of it is left (a lisa killed by SIGKILL could not end
 * it). A group whose leader runs with another start time, or whose members are of another
 * session, is someone else's (the id was reused): left alone. Resolves once it is gone, with
 * true when some of it was still running.
 */
export async function endRecordedGroup(group: RecordedGroup): Promise<boolean> {
  const members = groupMembers(group.pgid);
  if (members === null || members.length === 0) return false;
  const leader = members.find((m) => m.pid === group.pgid);
  if (leader !== undefined && group.startTime !== null && leader.startTime !== group.startTime) {
    return false;
  }
  // lisa's groups are sessions of their own (setsid): a member of another session is not ours.
  if (members.some((m) => m.sid !== group.pgid)) return false;
  await endGroup(group.pgid);
  return true;
}
