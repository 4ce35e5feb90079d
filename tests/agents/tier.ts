/**
 * Shared set-up of the real-agent tier (`deno task test:agents`): the pinned real `claude` and
 * `codex` from npm (scripts/install_agents.ts, cached outside the repo), the local mock of their
 * model APIs (mock_api.ts), and a hermetic lisa world whose HOME and CODEX_HOME are private temp
 * dirs seeded as DESIGN §4.7 says. Everything is driven through lisa itself, as a subprocess.
 *
 * When npm cannot install the agents at all, every test of the tier is skipped with that reason;
 * any other failure fails.
 */
import { installAgents, type InstallResult } from "../../scripts/install_agents.ts";
import { FAKE_BIN, type LisaResult, makeWorld, type World } from "../helpers/world.ts";
import { type MockApi, type MockFailure, startMockApi } from "./mock_api.ts";

const encoder = new TextEncoder();

/** Writes a line on stderr (tests may not use console). */
export function note(text: string): void {
  Deno.stderr.writeSync(encoder.encode(`[agents tier] ${text}\n`));
}

let installing: Promise<InstallResult> | undefined;

/** Installs (once per process) the pinned agents. */
export function agents(): Promise<InstallResult> {
  installing ??= installAgents({ log: note });
  return installing;
}

/** The install result, or the reason to skip the tier (printed once). */
export const INSTALL = await agents();
/** True when the tier must skip: the agents cannot be installed on this machine. */
export const SKIP = !INSTALL.ok && INSTALL.impossible;
/** Why the tier skips (empty when it runs). */
export const SKIP_REASON = SKIP ? (INSTALL as { message: string }).message : "";
if (SKIP) note(`SKIPPED: ${SKIP_REASON}`);

/**
 * A test name that carries the skip reason when the tier skips, so `deno test -q` (which hides
 * stderr) still shows why.
 */
export function named(name: string): string {
  return SKIP ? `${name} [SKIPPED: ${SKIP_REASON}]` : name;
}

/** A fake API key; claude approves it through the seeded `customApiKeyResponses`. */
export const MOCK_KEY = "sk-ant-api03-lisa-mock-key-0123456789abcdefghij";

/** Options of {@link makeTier}. */
export interface TierOptions {
  /** Give claude an API key (default true). Without one, `claude -p` fails at once. */
  credentials?: boolean;
  /** Knobs of the mock at start. */
  delayMs?: number;
  toolCall?: boolean;
  /** Make the mock answer with an API error (see mock_api.ts). */
  fail?: MockFailure | null;
}

/** One hermetic world with the real agents on PATH and the mock behind them. */
export interface Tier {
  world: World;
  mock: MockApi;
  /** Canonical project root (sessions run here). */
  projectRoot: string;
  codexHome: string;
  /** File the seeded user codex `notify` appends its payloads to (chained by lisa's hook). */
  userNotifyLog: string;
  lisa(args: string[]): Promise<LisaResult>;
  dispose(): Promise<void>;
}

/** Environment variables that must not leak from the machine into the agents. */
const SCRUB = /^(ANTHROPIC_|OPENAI_|CLAUDE_|CODEX_|AWS_|GOOGLE_|VERTEX|AZURE_)/;

/** Builds a tier: mock, world, seeded HOME and CODEX_HOME. */
export async function makeTier(options: TierOptions = {}): Promise<Tier> {
  if (!INSTALL.ok) throw new Error(`agents unavailable: ${INSTALL.message}`);
  const mock = await startMockApi({
    delayMs: options.delayMs,
    toolCall: options.toolCall,
    fail: options.fail,
  });
  // The real agents are checked against lisa's own windows: codex loads for seconds at start, and
  // a test window shorter than that would let text reach its boot screen.
  const world = await makeWorld({ fakeAgents: false, windows: "product" });
  try {
    const projectRoot = Deno.realPathSync(world.projectRoot);
    const home = world.home;
    const codexHome = `${home}/.codex`;
    const userNotifyLog = `${world.base}/user-notify.log`;
    for (const key of Object.keys(world.env)) if (SCRUB.test(key)) delete world.env[key];
    const inheritedPath = (world.env.PATH ?? "/usr/bin:/bin").split(":")
      .filter((dir) => dir !== FAKE_BIN && dir !== "");
    const binDirs = [INSTALL.agents.claude.binDir, INSTALL.agents.codex.binDir];
    Object.assign(world.env, {
      PATH: [...binDirs, ...inheritedPath].join(":"),
      HOME: home,
      CODEX_HOME: codexHome,
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_CODE_MAX_RETRIES: "1",
      // As root, claude refuses --dangerously-skip-permissions unless it is told it is sandboxed.
      IS_SANDBOX: "1",
      ANTHROPIC_BASE_URL: mock.url,
      MOCK_API_KEY: "mock",
      NO_COLOR: "1",
    });
    if (options.credentials !== false) world.env.ANTHROPIC_API_KEY = MOCK_KEY;

    // claude: onboarding done, the key approved, the project trusted, bypass mode accepted.
    Deno.writeTextFileSync(
      `${home}/.claude.json`,
      JSON.stringify({
        hasCompletedOnboarding: true,
        lastOnboardingVersion: INSTALL.agents.claude.version,
        customApiKeyResponses: { approved: [MOCK_KEY.slice(-20)], rejected: [] },
        bypassPermissionsModeAccepted: true,
        projects: { [projectRoot]: { hasTrustDialogAccepted: true, allowedTools: [] } },
      }),
    );
    Deno.mkdirSync(`${home}/.claude`, { recursive: true });
    Deno.writeTextFileSync(
      `${home}/.claude/settings.json`,
      JSON.stringify({ skipDangerousModePermissionPrompt: true }),
    );

    // codex: the mock as provider, the project trusted, and a user notify lisa must chain to.
    Deno.mkdirSync(codexHome, { recursive: true });
    const notifyScript = `printf '%s\\n' "$1" >> '${userNotifyLog}'`;
    Deno.writeTextFileSync(
      `${codexHome}/config.toml`,
      [
        `model = "mock-model"`,
        `model_provider = "mock"`,
        `notify = ["sh", "-c", ${JSON.stringify(notifyScript)}, "sh"]`,
        ``,
        `[model_providers.mock]`,
        `name = "mock"`,
        `base_url = "${mock.url}/v1"`,
        `wire_api = "responses"`,
        `env_key = "MOCK_API_KEY"`,
        `request_max_retries = 0`,
        `stream_max_retries = 0`,
        ``,
        `[projects."${projectRoot}"]`,
        `trust_level = "trusted"`,
        ``,
      ].join("\n"),
    );
    return {
      world,
      mock,
      projectRoot,
      codexHome,
      userNotifyLog,
      lisa: (args) => world.lisa(args),
      async dispose() {
        await world.dispose();
        await mock.close();
      },
    };
  } catch (error) {
    await world.dispose();
    await mock.close();
    throw error;
  }
}

/** A status answer of lisa (`session status --json`). */
export type Status = Record<string, unknown> & {
  sessionState?: string;
  waitingFor?: string | null;
  classificationReason?: string;
  signals?: Record<string, unknown>;
};

/** `lisa session status --json` of `session`. */
export async function status(tier: Tier, session: string): Promise<Status> {
  const result = await tier.lisa(["session", "status", "--session", session, "--json"]);
  return (result.json ?? { error: result.stderr || result.stdout }) as Status;
}

/** Compact text of a status for failure messages. */
export function brief(s: Status): string {
  const hooks = s.signals?.hooks as Record<string, unknown> | null | undefined;
  return `${s.sessionState}/${s.waitingFor ?? "-"} (${s.classificationReason}) hooks=${
    JSON.stringify(hooks ?? null)
  }`;
}

/**
 * Polls status every `intervalMs` until `accept` holds or `timeoutMs` passes; returns the last
 * status and every status seen (for failure messages).
 */
export async function pollStatus(
  tier: Tier,
  session: string,
  accept: (s: Status) => boolean,
  timeoutMs: number,
  intervalMs = 1000,
): Promise<{ ok: boolean; last: Status; seen: string[] }> {
  const deadline = Date.now() + timeoutMs;
  const seen: string[] = [];
  let last = await status(tier, session);
  seen.push(brief(last));
  while (!accept(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, intervalMs));
    last = await status(tier, session);
    const b = brief(last);
    if (seen[seen.length - 1] !== b) seen.push(b);
  }
  return { ok: accept(last), last, seen };
}

/** The last `lines` of the session's pane (for failure messages). */
export async function screen(tier: Tier, session: string, lines = 30): Promise<string> {
  const result = await tier.lisa([
    "session",
    "capture",
    "--session",
    session,
    "--raw",
    "--lines",
    String(lines),
  ]);
  return result.stdout || result.stderr;
}

/** Pids of processes whose environment has `CODEX_HOME=<codexHome>` (the tier's codex only). */
export function codexPids(codexHome: string): number[] {
  const needle = encoder.encode(`CODEX_HOME=${codexHome}\0`);
  const out: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    let environ: Uint8Array;
    let comm: string;
    try {
      environ = Deno.readFileSync(`/proc/${entry.name}/environ`);
      comm = Deno.readTextFileSync(`/proc/${entry.name}/comm`).trim();
    } catch {
      continue;
    }
    if (comm !== "codex" && comm !== "node") continue;
    if (indexOf(environ, needle) >= 0) out.push(Number(entry.name));
  }
  return out;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The session's hook sidecar records (empty when none). */
export function hookRecords(tier: Tier, session: string): Record<string, unknown>[] {
  const dir = tier.world.runtimeDir;
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name.endsWith(`-session-${session}-hooks.jsonl`)) {
      return Deno.readTextFileSync(`${dir}/${entry.name}`).split("\n").filter(Boolean)
        .map((l) => JSON.parse(l));
    }
  }
  return [];
}

/** The session's meta file, or null. */
export function meta(tier: Tier, session: string): Record<string, unknown> | null {
  const dir = tier.world.runtimeDir;
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name.endsWith(`-session-${session}-meta.json`)) {
      return JSON.parse(Deno.readTextFileSync(`${dir}/${entry.name}`));
    }
  }
  return null;
}

/** Spawns through lisa and returns the session name (throws with lisa's output otherwise). */
export async function spawn(tier: Tier, args: string[]): Promise<string> {
  const result = await tier.lisa(["session", "spawn", ...args, "--json"]);
  const session = result.json?.session;
  if (result.code !== 0 || typeof session !== "string") {
    throw new Error(`spawn failed (${result.code}): ${result.stdout} ${result.stderr}`);
  }
  return session;
}

/** `lisa session kill` (best effort, for `finally`). */
export async function kill(tier: Tier, session: string): Promise<LisaResult> {
  return await tier.lisa(["session", "kill", "--session", session, "--json"]);
}

/** `lisa session monitor` until a terminal state, with generous bounds. */
export async function monitor(
  tier: Tier,
  session: string,
  timeoutSeconds = 120,
): Promise<LisaResult> {
  return await tier.lisa([
    "session",
    "monitor",
    "--session",
    session,
    "--poll-interval",
    "1",
    "--timeout-seconds",
    String(timeoutSeconds),
    "--stop-on-waiting",
    "false",
    "--json",
  ]);
}
