/**
 * A session verb run on another host (`--host NAME`, or `--session NAME:ALIAS`): the same
 * command line, minus the host, handed to that host's lisa over ssh (`core/hosts`), its output
 * passed on as it comes and its exit code returned. Under JSON every document gets
 * `"host": NAME` (and so does each row it lists). What names a file here is read here: the
 * content of `--text-file`/`--prompt-file`, or of stdin for `-`, reaches the remote lisa on its
 * stdin (`--text-file -`), byte for byte, never through a shell. Flags that name a file for
 * lisa to keep (`--cursor-file`, `--handoff-cursor-file`, `--matrix-file`) are refused: that
 * file would be on the other host.
 */
import { splitHostSession } from "../base/host_name.ts";
import { UsageError } from "../base/errors.ts";
import { readTextInput } from "../core/drive/mod.ts";
import { hostNamed, runOnHost, tagJsonLine } from "../core/hosts/mod.ts";
import type { LisaContext } from "./context.ts";
import { VERBS } from "./verbs.ts";

/** The verbs whose output comes over time, or that may take long: streamed, no time limit. */
const STREAMING = new Set([
  "session monitor",
  "session watch",
  "session smoke",
]);

/**
 * True for a call that may take as long as its own flags say: a verb of {@link STREAMING}, or a
 * `send --wait` (a turn).
 */
function mayTakeLong(route: string, args: readonly string[]): boolean {
  return STREAMING.has(route) || (route === "session send" && args.includes("--wait"));
}

/** The value of `--NAME N` or `--NAME=N` in `args`, when it is a number. */
function secondsFlag(args: readonly string[], name: string): number | undefined {
  for (const [i, a] of args.entries()) {
    const value = a === name
      ? args[i + 1]
      : a.startsWith(`${name}=`)
      ? a.slice(name.length + 1)
      : "";
    if (value !== "" && Number.isFinite(Number(value))) return Number(value);
  }
  return undefined;
}

/**
 * The time limit of a call that is not streamed: the host timeout, and for a plain send also
 * the waits its flags allow before it answers (a starting agent's readiness, 20 s by default;
 * the receipt, 5 s by default, twice with `--retry-enter`). Without a limit, a send over a shared connection gone silent
 * (where ssh's ConnectTimeout never applies) waited forever.
 */
function callLimitMs(route: string, args: readonly string[], hostSeconds: number): number {
  if (route !== "session send") return hostSeconds * 1000;
  const ready = secondsFlag(args, "--ready-timeout") ?? 20;
  const receipt = secondsFlag(args, "--confirm-timeout") ?? 5;
  // --retry-enter presses Enter once more and waits for the receipt as long again; the last of
  // --retry-enter / --no-retry-enter counts, as for every flag given twice.
  const retry = args.findLast((a) => a === "--retry-enter" || a === "--no-retry-enter");
  return (hostSeconds + ready + receipt * (retry === "--retry-enter" ? 2 : 1)) * 1000;
}

/** Flags naming a file this lisa would read back or keep: refused with a host. */
const LOCAL_FILES: Readonly<Record<string, string>> = {
  cursorFile: "--cursor-file",
  handoffCursorFile: "--handoff-cursor-file",
  matrixFile: "--matrix-file",
};

/** Above this, an inline `--text`/`--prompt` goes over stdin (one argv word is capped). */
const MAX_INLINE_COMMAND_BYTES = 64 * 1024;

/** The text payload flags of a verb: value flag and file flag. */
const PAYLOADS: Readonly<Record<string, { value: string; file: string }>> = {
  "session send": { value: "text", file: "textFile" },
  "session spawn": { value: "prompt", file: "promptFile" },
};

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** One word (or two) of a verb's argv after its route. */
interface Item {
  /** The flag's key in the verb's flag set; undefined for a positional word. */
  key?: string;
  /** The words as given (`--flag=v`, or `--flag` `v`, or a positional). */
  words: string[];
}

/**
 * Splits `rest` (argv after the route) into flags with their values and positionals, by the
 * verb's flag specs. The argv has been accepted by the local parser already, so it is well
 * formed; this only tells which word belongs to which flag. Pure.
 */
export function itemsOf(route: string, rest: readonly string[]): Item[] {
  // deno-lint-ignore no-explicit-any
  const specs = VERBS[route].flags as Record<string, any>;
  const items: Item[] = [];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i];
    if (word === "--") {
      items.push(...rest.slice(i).map((w) => ({ words: [w] })));
      break;
    }
    if (!word.startsWith("--")) {
      items.push({ words: [word] });
      continue;
    }
    const eq = word.indexOf("=");
    const name = word.slice(2, eq < 0 ? undefined : eq);
    let key = camel(name);
    if (!(key in specs) && name.startsWith("no-")) key = camel(name.slice(3));
    const spec = specs[key];
    const takesNext = spec?.kind === "parsed" && eq < 0 && !spec.inferEmpty &&
      i + 1 < rest.length;
    items.push({ key, words: takesNext ? [word, rest[++i]] : [word] });
  }
  return items;
}

/** The value an item gives its flag (`--flag=v` or `--flag v`). */
function valueOf(item: Item): string | undefined {
  if (item.words.length === 2) return item.words[1];
  const eq = item.words[0].indexOf("=");
  return eq < 0 ? undefined : item.words[0].slice(eq + 1);
}

/** `item` with `value` instead of its own, in the same form. */
function withValue(item: Item, value: string): Item {
  if (item.words.length === 2) return { ...item, words: [item.words[0], value] };
  const eq = item.words[0].indexOf("=");
  return { ...item, words: [`${item.words[0].slice(0, eq)}=${value}`] };
}

/** What a remote call needs: its host, the argv for the remote lisa, and stdin. */
export interface RemoteCall {
  host: string;
  args: string[];
  stdin?: Uint8Array;
}

/**
 * Which host a call names (see the module doc) and the argv its lisa gets: the route, then the
 * flags as given, without `--host`, with the session's `NAME:` prefix taken off, and a text
 * payload from a file or stdin moved to the remote lisa's stdin. Throws `conflicting_options`
 * when two hosts are named or a local-file flag is given, `invalid_host` for a bad name.
 */
export async function remoteCallOf(
  ctx: Pick<LisaContext, "deps">,
  route: string,
  argv: readonly string[],
  positional: readonly unknown[],
): Promise<RemoteCall | null> {
  const routeWords = route.split(" ").length;
  const items = itemsOf(route, argv.slice(routeWords));
  const named: string[] = [];
  let allHosts = false;
  for (const item of items) {
    if (item.key === "host") named.push(valueOf(item)!);
    if (item.key === "allHosts") allHosts = true;
  }
  const out = withoutHosts(items, positional, named);
  if (named.length === 0) return null;
  const host = oneHost(named, allHosts);
  const stdin = await payloadToStdin(ctx, route, out);
  return {
    host,
    args: [...argv.slice(0, routeWords), ...out.flatMap((i) => i.words)],
    ...(stdin !== undefined ? { stdin } : {}),
  };
}

/**
 * The call's items for the remote lisa: without `--host`, the session (`--session`, `--for`, the
 * positional, each of `--sessions`) without its `NAME:` prefix; each host so named is added to
 * `named`. Throws `conflicting_options` for `--sessions` on several machines and for a flag that
 * names a file this lisa would keep.
 */
function withoutHosts(items: readonly Item[], positional: readonly unknown[], named: string[]) {
  const out: Item[] = [];
  let positionalSeen = false;
  for (const item of items) {
    if (item.key === "host") continue;
    const isSession = item.key === "session" || item.key === "for";
    const isPositional = item.key === undefined && !positionalSeen && positional.length > 0 &&
      typeof positional[0] === "string" && item.words[0] === positional[0];
    if (isPositional) positionalSeen = true;
    if (isSession || isPositional) {
      const value = isSession ? valueOf(item) : item.words[0];
      if (value !== undefined && value.includes(":")) {
        const [host, session] = splitHostSession(value);
        named.push(host!);
        out.push(isSession ? withValue(item, session) : { words: [session] });
        continue;
      }
    }
    if (item.key === "sessions") {
      const local = sessionsOnOneHost(item, named);
      if (local !== null) {
        out.push(local);
        continue;
      }
    }
    if (item.key !== undefined && item.key in LOCAL_FILES) {
      throw new UsageError(
        `${LOCAL_FILES[item.key]} names a file on this machine, which the other host's lisa ` +
          "cannot keep: run the call there, or keep the state yourself (capture: pass the " +
          "previous nextOffset as --delta-from)",
        "conflicting_options",
      );
    }
    out.push(item);
  }
  return out;
}

/**
 * `--sessions a,b`: each of them on one host (`box1:a,box1:b`, the host added to `named` and the
 * item without the prefixes), or none on any (null). Throws `conflicting_options` for several.
 */
function sessionsOnOneHost(item: Item, named: string[]): Item | null {
  const names = (valueOf(item) ?? "").split(",").map((n) => n.trim()).filter((n) => n);
  const split = names.map(splitHostSession);
  const hosts = new Set(split.map(([h]) => h));
  if (hosts.size > 1) {
    throw new UsageError(
      "--sessions names sessions on more than one machine: one host per call",
      "conflicting_options",
    );
  }
  const [host] = hosts;
  if (host === null || host === undefined) return null;
  named.push(host);
  return withValue(item, split.map(([, n]) => n).join(","));
}

/** The one host of `named`; throws `conflicting_options` for two, or with `--all-hosts`. */
function oneHost(named: readonly string[], allHosts: boolean): string {
  const host = named[0];
  if (named.some((h) => h !== host)) {
    throw new UsageError(
      `The call names two hosts (${[...new Set(named)].join(", ")}): give one`,
      "conflicting_options",
    );
  }
  if (allHosts) {
    throw new UsageError(
      "--all-hosts and a host (--host, or NAME: before the session) exclude each other",
      "conflicting_options",
    );
  }
  return host;
}

/**
 * The remote lisa's stdin for the text payload of `route` (`send --text`, `spawn --prompt`): the
 * file or stdin it names, read here, or an inline value too long for one argv word; its item in
 * `out` then reads `-`. Undefined when the payload stays on the command line.
 */
async function payloadToStdin(
  ctx: Pick<LisaContext, "deps">,
  route: string,
  out: Item[],
): Promise<Uint8Array | undefined> {
  const payload = PAYLOADS[route];
  if (payload === undefined) return undefined;
  const valueItem = out.find((i) => i.key === payload.value);
  const fileItem = out.find((i) => i.key === payload.file);
  const value = valueItem && valueOf(valueItem);
  const file = fileItem && valueOf(fileItem);
  if (file !== undefined || value === "-") {
    // The same reading (and the same errors) as a local call: missing file, not UTF-8, too big.
    const text = await readTextInput(ctx.deps, {
      value,
      file,
      valueFlag: `--${kebab(payload.value)}`,
      fileFlag: `--${kebab(payload.file)}`,
    });
    if (fileItem !== undefined) out[out.indexOf(fileItem)] = withValue(fileItem, "-");
    return new TextEncoder().encode(text ?? "");
  }
  if (valueItem !== undefined && value !== undefined) {
    const size = new TextEncoder().encode(out.flatMap((i) => i.words).join(" ")).length;
    if (size > MAX_INLINE_COMMAND_BYTES) {
      out[out.indexOf(valueItem)] = withValue(valueItem, "-");
      return new TextEncoder().encode(value);
    }
  }
  return undefined;
}

/**
 * A line of a remote spawn's human output: the new session's bare name (what scripts read) names
 * nothing on this machine, so it becomes `HOST:NAME`, which every session verb here takes. Other
 * lines (a dry run's table, `nested:`) pass as they are. Pure.
 */
export function hostSpawned(line: string, host: string): string {
  return /^lisa-[A-Za-z0-9_-]+\n?$/.test(line) ? `${host}:${line}` : line;
}

/** Each complete line of a stream of text chunks, handed to `each` (with its newline). */
function lines(each: (line: string) => void): { push: (text: string) => void; end: () => void } {
  let pending = "";
  return {
    push(text) {
      pending += text;
      let nl = pending.indexOf("\n");
      while (nl >= 0) {
        each(pending.slice(0, nl + 1));
        pending = pending.slice(nl + 1);
        nl = pending.indexOf("\n");
      }
    },
    end() {
      if (pending !== "") each(pending);
      pending = "";
    },
  };
}

/**
 * Runs `call` on its host and passes the output on (see the module doc); `streaming` for a call
 * whose output comes over time although its verb's seldom does (`list --watch`), and `signal`
 * to end it early (the remote lisa ends with it). Returns the remote lisa's exit code; throws
 * `host_unreachable`, `host_lisa_failed`, `invalid_host` or `hosts_file_invalid` (exit 1) when
 * it could not run there.
 */
export async function runRemote(
  ctx: Pick<LisaContext, "deps" | "json">,
  route: string,
  call: RemoteCall,
  streaming: boolean,
  signal?: AbortSignal,
): Promise<number> {
  const deps = ctx.deps;
  const host = hostNamed(deps, call.host);
  if (route === "session attach") {
    const r = await runOnHost(deps, host, call.args, { tty: true, timeoutMs: Infinity });
    return r.code;
  }
  const tag = (line: string) => {
    if (!ctx.json) return route === "session spawn" ? hostSpawned(line, host.name) : line;
    const nl = line.endsWith("\n") ? "\n" : "";
    return tagJsonLine(nl ? line.slice(0, -1) : line, host.name) + nl;
  };
  const stream = mayTakeLong(route, call.args) || streaming;
  const out = lines((line) => deps.io.out(tag(line)));
  const r = await runOnHost(deps, host, call.args, {
    timeoutMs: stream ? Infinity : callLimitMs(route, call.args, deps.config.hostTimeoutSeconds),
    ...(call.stdin !== undefined ? { stdin: call.stdin } : {}),
    ...(stream ? { onStdout: out.push, onStderr: (text: string) => deps.io.err(text) } : {}),
    ...(signal !== undefined ? { signal } : {}),
  });
  if (stream) out.end();
  else {
    if (r.stderr !== "") deps.io.err(r.stderr);
    out.push(r.stdout);
    out.end();
  }
  return r.code;
}
