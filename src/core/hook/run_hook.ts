/**
 * `lisa hook <agent> [--chain <json argv>] [payload]`: called by agent hooks (claude's
 * `--settings` hooks, codex's `notify`). Appends one compact record to `LISA_HOOK_FILE` and
 * exits 0. Lean by design (DESIGN §7: floor + 10 ms): main.ts routes here before building Deps
 * or loading commander, and this module imports no `node:*`.
 *
 * Contract:
 * - Never writes to stdout: claude injects a hook's stdout into the model's context.
 * - Never fails the agent: bad JSON, huge input, a missing or unwritable file, a busy lock all
 *   end in exit 0. Junk input still appends one record (`event: "unknown"`).
 * - A silent no-op when `LISA_HOOK_FILE` is unset (called outside a lisa session), and when it
 *   names the sidecar of a session whose heartbeat and meta files are gone (killed: a late
 *   SessionEnd must not recreate its artifacts). Any other missing file is created (0600).
 * - Bounded memory: stdin is read up to {@link STDIN_CAP} bytes; the rest is drained and
 *   discarded (so the agent never blocks or gets EPIPE writing it), for at most
 *   {@link STDIN_DEADLINE_MS}.
 * - One record per call, written with one `write` on an `O_APPEND` file under the log's lock
 *   (lines < 4 KiB), so parallel calls never interleave; the file is bounded like the event log
 *   (`LISA_EVENTS_MAX_BYTES`/`LISA_EVENTS_MAX_LINES`), except that compaction never drops a line
 *   history has not ingested yet (`keepUnread`).
 * - `--chain <json argv>` (codex): after recording, runs the user's own `notify` command with
 *   the same payload appended, so their notification still fires.
 *
 * The payload is the last argument after `<agent>` when there is one (codex appends its JSON
 * to the notify argv), otherwise stdin (claude).
 */
import { type Env, loadConfig } from "../../base/config.ts";
import { LockBusyError } from "../../base/errors.ts";
import { appendJsonl } from "../../store/events.ts";
import { DenoRunner } from "../../proc/runner.ts";
import { boundRecord, buildRecord, type HookRecord } from "./hook_record.ts";

/** Bytes of stdin kept; more is read and discarded. */
export const STDIN_CAP = 256 * 1024;
/** Longest time spent reading stdin (a writer that never closes it cannot hold the hook). */
export const STDIN_DEADLINE_MS = 3000;
/** Longest wait for the log's lock before appending without it (O_APPEND keeps lines whole). */
const LOCK_WAIT_MS = 1000;
/** Longest time the chained user notify may run. */
const CHAIN_TIMEOUT_MS = 10_000;

/** What the hook reads of the outside world besides its environment (fakes in tests). */
export interface HookIo {
  stdin: {
    read(buffer: Uint8Array): Promise<number | null>;
    isTerminal(): boolean;
  };
  now(): Date;
  /** Runs the chained notify command; errors are ignored by the caller. */
  runChain(argv: string[]): Promise<void>;
}

/** The real process's stdin, clock and runner. */
export function realHookIo(): HookIo {
  return {
    stdin: Deno.stdin,
    now: () => new Date(),
    async runChain(argv) {
      await new DenoRunner(CHAIN_TIMEOUT_MS).run(argv, { allowFailure: true });
    },
  };
}

/** Parsed command line of `lisa hook`. */
interface HookArgs {
  agent: string;
  chain: string[] | null;
  /** The payload given as an argument (codex notify), if any. */
  payloadArg: string | undefined;
}

function parseChain(text: string | undefined): string[] | null {
  if (text === undefined) return null;
  try {
    const value = JSON.parse(text);
    if (Array.isArray(value) && value.length > 0 && value.every((w) => typeof w === "string")) {
      return value;
    }
  } catch { /* not a JSON argv: ignored */ }
  return null;
}

function parseArgs(args: readonly string[]): HookArgs {
  const positional: string[] = [];
  let chainText: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--chain") chainText = args[++i];
    else if (a.startsWith("--chain=")) chainText = a.slice("--chain=".length);
    else positional.push(a);
  }
  return {
    agent: positional[0] ?? "unknown",
    chain: parseChain(chainText),
    payloadArg: positional.length > 1 ? positional[positional.length - 1] : undefined,
  };
}

/** Reads a promise's value, or `undefined` once `deadline` (epoch ms) has passed. */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
  const left = deadline - Date.now();
  if (left <= 0) return Promise.resolve(undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), left);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function isCompleteJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder().decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads stdin up to `cap` bytes and returns them as text; stops at EOF or as soon as the bytes
 * kept form one complete JSON document (an agent writes one and closes). Past the cap, the rest
 * is drained and discarded until EOF or `deadlineMs`, so the writer never blocks or gets EPIPE.
 * A terminal gives "" (a person ran the command by hand).
 *
 * The first read waits without a timer: the first timer of a Deno process costs ~6 ms of
 * start-up, a third of the hook's budget, and agents always write their payload at once. The
 * deadline only applies once a payload turns out to be partial or oversized.
 */
export async function readStdinCapped(
  stdin: HookIo["stdin"],
  cap = STDIN_CAP,
  deadlineMs = STDIN_DEADLINE_MS,
): Promise<string> {
  if (stdin.isTerminal()) return "";
  const kept = new Uint8Array(cap);
  let used = 0;
  let scratch: Uint8Array | undefined;
  let deadline: number | undefined;
  while (true) {
    let n: number | null | undefined;
    const target = used < cap ? kept.subarray(used) : (scratch ??= new Uint8Array(64 * 1024));
    try {
      n = deadline === undefined
        ? await stdin.read(target)
        : await beforeDeadline(stdin.read(target), deadline);
    } catch {
      break;
    }
    if (n === undefined || n === null) break;
    if (used < cap) {
      used += n;
      if (used < cap && isCompleteJson(kept.subarray(0, used))) break;
    }
    deadline ??= Date.now() + deadlineMs;
  }
  return new TextDecoder().decode(kept.subarray(0, used));
}

/** Appends `record` as one line with one write, without the lock (when the lock stays busy). */
function appendUnlocked(path: string, record: HookRecord): void {
  try {
    if (Deno.lstatSync(path).isSymlink) return;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) return;
  }
  const file = Deno.openSync(path, { append: true, create: true, mode: 0o600 });
  try {
    file.writeSync(new TextEncoder().encode(JSON.stringify(record) + "\n"));
  } finally {
    file.close();
  }
}

/**
 * False when `hookFile` is a session's sidecar (`…-hooks.jsonl`) whose heartbeat and meta files
 * are both gone: the session was killed or cleaned up, and a late hook (claude's SessionEnd on
 * kill) must not recreate its artifacts. The wrapper creates the heartbeat before the agent
 * starts and spawn writes the meta right after tmux returns, so a live session has at least one.
 * Any other path counts as alive.
 */
function sessionAlive(hookFile: string): boolean {
  const suffix = "-hooks.jsonl";
  if (!hookFile.endsWith(suffix)) return true;
  const base = hookFile.slice(0, -suffix.length);
  for (const sibling of [`${base}-heartbeat.txt`, `${base}-meta.json`]) {
    try {
      Deno.lstatSync(sibling);
      return true;
    } catch { /* try the next one */ }
  }
  return false;
}

async function handle(args: readonly string[], env: Env, io: HookIo): Promise<void> {
  const parsed = parseArgs(args);
  // The uid only shapes the default runtime dir, which the hook never uses.
  const config = loadConfig(env, 0).config;
  const hookFile = config.hookFile;
  if (hookFile !== undefined && hookFile.startsWith("/") && sessionAlive(hookFile)) {
    const payload = parsed.payloadArg ?? await readStdinCapped(io.stdin);
    const record = boundRecord(
      buildRecord(payload, { at: io.now(), runId: config.runId ?? null, agent: parsed.agent }),
    );
    try {
      await appendJsonl(hookFile, record, {
        maxBytes: config.eventsMaxBytes,
        maxLines: config.eventsMaxLines,
        lockTimeoutMs: Math.min(config.eventLockTimeoutMs, LOCK_WAIT_MS),
        // History must ingest every line: none is compacted away before it was read.
        keepUnread: true,
      });
    } catch (error) {
      // Only a busy lock means nothing was written; any other failure may follow the write.
      if (error instanceof LockBusyError) {
        try {
          appendUnlocked(hookFile, record);
        } catch { /* nowhere to record: the agent must still go on */ }
      }
    }
  }
  if (parsed.chain !== null) {
    const argv = parsed.payloadArg === undefined ? parsed.chain : [
      ...parsed.chain,
      parsed.payloadArg,
    ];
    await io.runChain(argv);
  }
}

/**
 * Handles one hook call (see the module doc). Always resolves to 0; never writes to stdout.
 * `env` is the process environment; `LISA_*` values are read through `loadConfig`.
 */
export async function runHook(
  args: readonly string[],
  env: Env,
  io: HookIo = realHookIo(),
): Promise<number> {
  try {
    await handle(args, env, io);
  } catch { /* never fail the agent */ }
  return 0;
}
