/**
 * SIGINT, SIGTERM and SIGHUP while lisa runs children in process groups of their own (git, whose
 * children — hooks, filters, the `git reset --hard` under `git worktree add` — would otherwise
 * outlive it).
 *
 * A child of its own process group does not get the Ctrl-C meant for lisa, and nothing ends it
 * when lisa dies: so while such a child runs, lisa listens for these signals. A signal then ends
 * every such group (the runner waits until none of a group is left). What lisa does next depends
 * on whether a *section* is open (work that knows how to undo itself, such as a merge):
 * - inside a section, the signal is remembered: the running child's call throws
 *   `InterruptedError`, later git calls refuse to start ({@link interruption}), and the section
 *   undoes its work and lets the error reach the exit (128 + the signal's number, like a death by
 *   that signal). A second signal is not waited on: lisa dies of it at once.
 * - outside a section, lisa dies of the signal at once, as it would have without listening.
 * When no child runs and no section is open, nothing listens, and signals act as always.
 *
 * Signals are process-wide, so this state is too (one lisa process, one set of listeners).
 */

/** The signals that interrupt lisa. */
const SIGNALS: readonly Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** The number of each signal (for exit codes: 128 + n). */
export const SIGNAL_NUMBERS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGTERM: 15,
};

let holders = 0;
let sections = 0;
let received: Deno.Signal | null = null;
/** The live process groups, each with the function that ends it. */
const groups = new Map<number, () => void>();
const listeners = new Map<Deno.Signal, () => void>();

function install(): void {
  if (!canListen()) return;
  for (const signal of SIGNALS) {
    const listener = () => onSignal(signal);
    listeners.set(signal, listener);
    Deno.addSignalListener(signal, listener);
  }
}

function uninstall(): void {
  for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  listeners.clear();
}

/** False where Deno has no signal listeners (Windows). */
function canListen(): boolean {
  return Deno.build.os !== "windows";
}

function onSignal(signal: Deno.Signal): void {
  for (const end of groups.values()) end();
  if (sections > 0 && received === null) {
    received = signal;
    return;
  }
  // Nothing undoes itself (or a second signal): die of it, as without a listener.
  uninstall();
  Deno.kill(Deno.pid, signal);
}

/** Starts listening (if nobody did); the returned function stops when the last holder lets go. */
function hold(): () => void {
  if (holders++ === 0) install();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) uninstall();
  };
}

/**
 * Registers a live process group and the function that ends it (called on a signal). Returns
 * the function that unregisters it once the group is gone.
 */
export function addGroup(pgid: number, end: () => void): () => void {
  const release = hold();
  groups.set(pgid, end);
  return () => {
    groups.delete(pgid);
    release();
  };
}

/**
 * Listens for signals from before a process group is spawned until the returned function is
 * called (once it is registered with {@link addGroup}, or failed to start). Deno dies of a
 * signal at once while nobody listens: one landing after the spawn but before the group's own
 * registration ended lisa with the new group left running (under load, 1 run in 3 of
 * interrupt_test). The spawn and the registration run in one go, so the listener, which runs
 * on the event loop, always finds the group registered.
 */
export function listenBeforeSpawn(): () => void {
  return hold();
}

/**
 * Opens a section: work that undoes itself when interrupted (see the module doc). Returns the
 * function that closes it.
 */
export function openSection(): () => void {
  const release = hold();
  sections++;
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    // The signal was for the section: once none is open, a later one starts afresh.
    if (--sections === 0) received = null;
    release();
  };
}

/** The signal that interrupted the open section, or null. */
export function interruption(): Deno.Signal | null {
  return received;
}
