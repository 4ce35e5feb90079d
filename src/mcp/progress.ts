/**
 * Progress notifications of one tool call whose client sent a `progressToken`: each line the
 * verb prints, and a beat every `LISA_MCP_PROGRESS_SECONDS` while the call runs, so a call that
 * prints nothing until it ends (`send` with `wait`, `monitor`, a quiet `watch`, a `spawn` that
 * checks out a worktree) still shows a client that resets its timeout on progress that it is
 * alive. A beat's message is one JSON object: `{"type":"progress","elapsedSeconds":N}`, plus the
 * last session state the call worked out (`session`, `state`, `waitingFor`), known from the
 * call's own status reads ({@link Deps.noteState}): a beat costs no tmux call or file read.
 */
import type { Deps, StateNote } from "../base/deps.ts";

/** Sends one notification; its failure (a client gone) is the transport's business. */
export type SendProgress = (progress: number, message: string) => void;

/** The progress of one call (see the module doc); {@link stop} it when the call ends. */
export class CallProgress {
  private count = 0;
  private last: StateNote | null = null;
  private readonly startMs: number;
  private readonly timer: ReturnType<typeof setInterval> | undefined;

  /** Starts the beat; a call without a token (`send` undefined) reports nothing. */
  constructor(
    private readonly deps: Pick<Deps, "now">,
    private readonly send: SendProgress | undefined,
    intervalSeconds: number,
  ) {
    this.startMs = deps.now().getTime();
    if (send !== undefined) this.timer = setInterval(() => this.beat(), intervalSeconds * 1000);
  }

  /** A line the verb printed. */
  line(text: string): void {
    this.send?.(++this.count, text);
  }

  /** A session state the call worked out (kept for the next beat). */
  state(note: StateNote): void {
    this.last = note;
  }

  /** Ends the beat. */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  private beat(): void {
    const elapsedSeconds = Math.round((this.deps.now().getTime() - this.startMs) / 1000);
    const state = this.last === null ? {} : { ...this.last };
    this.send?.(++this.count, JSON.stringify({ type: "progress", elapsedSeconds, ...state }));
  }
}
