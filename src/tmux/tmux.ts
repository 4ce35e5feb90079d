/**
 * The tmux layer: every tmux call goes through here, with argv arrays and the project's socket
 * (`-S`). Several tmux commands may be chained in one invocation (`;` as its own argument).
 */
import type { Runner, RunOptions, RunResult } from "../base/runner.ts";

/** Field separator of `-F` formats: a control char tmux passes through unchanged. */
export const FIELD_SEP = "\x1f";

/**
 * tmux target of a session, exact match only: `=NAME:`, the one form every command lisa uses
 * resolves exactly, whatever kind of target it takes. `=NAME` alone is exact for commands that
 * take a session (`has-session`, `kill-session`) but not for those that take a window: tmux
 * 3.3a resolves `list-panes -s -t =lisa-w-1` to a session `lisa-w-10` (prefix match), which
 * once made `kill` of a gone session end its neighbour. With the colon the session part is
 * always looked up as a session, `=` exact. Pinned against real tmux by
 * tests/integration/tmux_targets_test.ts.
 */
export function sessionTarget(session: string): string {
  return `=${session}:`;
}

/** The ids tmux gave a session's pane and its window at spawn (`%N`, `@N`), as meta keeps them. */
export interface PaneIds {
  windowId?: string;
  paneId?: string;
}

/** True when `ids` hold a window id `@N` and a pane id `%N` as tmux prints them. */
export function hasPaneIds(ids: PaneIds | null | undefined): ids is Required<PaneIds> {
  return ids != null && typeof ids.windowId === "string" && /^@\d+$/.test(ids.windowId) &&
    typeof ids.paneId === "string" && /^%\d+$/.test(ids.paneId);
}

/**
 * tmux target of the pane lisa created for `session`: `=NAME:.%P` with the pane id recorded at
 * spawn. tmux resolves that form exactly (the session by name, `=`; the pane by its id, which
 * tmux never gives another pane while the server runs, and only while it is in one of that
 * session's windows; anything else is "can't find"), so a window a person or the agent opened in
 * the session, which tmux then calls the active one, never takes the agent pane's place, and
 * the agent's pane stays the agent's when a person moves it to another window of the session
 * (`break-pane`, tmux's `prefix !`; `=NAME:@W.%P` then named nothing). Without ids (a meta
 * written before they were recorded, a session lisa did not spawn) the target is the top-left
 * pane of the session's first window (`^.{top-left}`): the pane `new-session` created unless
 * someone moved or split it with `-b`, and never a window opened later (tmux appends those).
 * Pinned against real tmux by tests/integration/tmux_targets_test.ts.
 */
export function paneTarget(session: string, ids: PaneIds | null | undefined): string {
  return hasPaneIds(ids)
    ? `${sessionTarget(session)}.${ids.paneId}`
    : `${sessionTarget(session)}^.{top-left}`;
}

/**
 * Quotes one word for tmux's own command parser (a control-mode line, a command string given
 * to `if-shell`): single quotes, or double quotes with `\`, `"` and `$` escaped when the word
 * holds a single quote. Checked for every printable ASCII key and non-ASCII keys against tmux
 * 3.3a (tests/integration/pane_input_test.ts).
 */
export function quoteWord(word: string): string {
  if (!word.includes("'")) return `'${word}'`;
  return `"${word.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;
}

/** Commands as one string for tmux's parser (`if-shell` branches): words quoted, `;` between. */
export function commandString(commands: readonly (readonly string[])[]): string {
  return commands.map((c) => c.map(quoteWord).join(" ")).join(" ; ");
}

/** Builds a `-F` format from field names (`pane_pid` → `#{pane_pid}`), joined by FIELD_SEP. */
export function formatOf(fields: readonly string[]): string {
  return fields.map((f) => `#{${f}}`).join(FIELD_SEP);
}

/** Parses `-F` output of {@link formatOf}`(fields)` into one record per line. */
export function parseFormat<F extends string>(
  output: string,
  fields: readonly F[],
): Record<F, string>[] {
  const rows: Record<F, string>[] = [];
  for (const line of output.split("\n")) {
    if (line === "") continue;
    const parts = line.split(FIELD_SEP);
    if (parts.length < fields.length) continue;
    const row = {} as Record<F, string>;
    fields.forEach((f, i) => {
      // The last field takes the rest, so a stray separator in it cannot shift others.
      row[f] = i === fields.length - 1 ? parts.slice(i).join(FIELD_SEP) : parts[i];
    });
    rows.push(row);
  }
  return rows;
}

/** True when tmux said the server is not running / socket missing. */
export function isNoServer(stderr: string): boolean {
  return /no server running|error connecting to|No such file or directory|server exited/i.test(
    stderr,
  );
}

/**
 * True when tmux said the target session/window/pane does not exist. "no current target" is
 * what a server with no sessions left (exiting after its last kill-session) answers.
 */
export function isMissingTarget(stderr: string): boolean {
  return /can't find (session|window|pane)|session not found|no such session|no current target/i
    .test(stderr);
}

/**
 * Makes a word that ends in `;` reach tmux unchanged: tmux reads a trailing `;` as a command
 * separator and strips the backslash of a trailing `\;`, so `x;` is passed as `x\;` (and
 * `x\;` as `x\\;`).
 */
export function escapeTrailingSemicolon(word: string): string {
  return word.endsWith(";") ? `${word.slice(0, -1)}\\;` : word;
}

/** Escapes `#` for arguments tmux expands as formats (such as `new-session -c`). */
export function escapeFormat(text: string): string {
  return text.replaceAll("#", "##");
}

/**
 * tmux's `-u`: the client writes UTF-8 whatever the locale says. Without it, a tmux client run
 * where no `LANG`/`LC_*` names UTF-8 (a command over ssh, cron, a bare service environment)
 * prints every non-ASCII character, and every control character, as `_`: the field separator
 * of `-F` formats ({@link FIELD_SEP}) with them, so no row parsed and every session read as
 * missing, and captures lost the agents' own text (`✳`, `⠐`, prompts).
 */
export const TMUX_UTF8 = "-u";

/** A tmux client bound to one socket. */
export class Tmux {
  constructor(
    private readonly runner: Runner,
    readonly socketPath: string,
    private readonly timeoutMs?: number,
  ) {}

  /**
   * The full argv for `commands` chained in one invocation. tmux splits commands at any word
   * that ends in `;`, so such words (user text: keys, paths, env values) are escaped with
   * {@link escapeTrailingSemicolon}; only the separators lisa inserts stay bare. `-u`: see
   * {@link TMUX_UTF8}.
   */
  argv(commands: readonly (readonly string[])[]): string[] {
    const out = ["tmux", TMUX_UTF8, "-S", this.socketPath];
    commands.forEach((cmd, i) => {
      if (i > 0) out.push(";");
      for (const word of cmd) out.push(escapeTrailingSemicolon(word));
    });
    return out;
  }

  /**
   * Runs `commands` in one tmux invocation. Failures are returned (allowFailure) unless
   * `options.allowFailure` is false; callers classify stderr with {@link isNoServer} /
   * {@link isMissingTarget}.
   */
  run(commands: readonly (readonly string[])[], options: RunOptions = {}): Promise<RunResult> {
    return this.runner.run(this.argv(commands), {
      allowFailure: true,
      timeoutMs: this.timeoutMs,
      ...options,
    });
  }
}
