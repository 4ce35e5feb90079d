/**
 * The done file (`…-done.txt`, DESIGN §4.4), as the startup script's EXIT trap writes it:
 * `{runId}:{exitCode}`. Read by status (the exit code of a finished session) and by every writer
 * into a pane (drive: a command that ended takes no more input), which must not load status.
 */

/** The done file's text parsed; null when absent or malformed. */
export function parseDoneFile(
  text: string | undefined,
): { runId: string; exitCode: number } | null {
  if (text === undefined) return null;
  const m = /^(.*):(\d+)\s*$/.exec(text.trim());
  return m ? { runId: m[1], exitCode: Number(m[2]) } : null;
}
