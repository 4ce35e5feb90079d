/**
 * The command table as data: every verb of lisa, its flags (its flag set in `verb_flags.ts`,
 * picked from `flags.ts`, where each flag is declared once), its one-line doc, and a lazy loader
 * of its implementation (`commands/<route>.ts`, default export). `table.ts` turns it into
 * stricli's route map; help, completions and the README's command map read it too (the
 * pre-parsed paths read only `verb_flags.ts`). Loading this module loads no verb and not stricli.
 *
 * `lisa hook` is not here: `main()` dispatches it raw (it must accept anything and never fail).
 */
import * as F from "./flags.ts";
import * as V from "./verb_flags.ts";
import type { VerbModule } from "./verb_flags.ts";
import { lazyImport } from "../base/lazy.ts";

export * from "./verb_flags.ts";

// ---------------------------------------------------------------------------------------------
// The verbs.

/** One verb of the table. */
export interface VerbSpec {
  brief: string;
  fullDescription?: string;
  // deno-lint-ignore no-explicit-any
  flags: Record<string, any>;
  /** Positional arguments (a tuple), in stricli's shape. */
  positional?: {
    kind: "tuple";
    parameters: readonly {
      brief: string;
      placeholder: string;
      // deno-lint-ignore no-explicit-any
      parse: (t: string) => any;
      optional?: boolean;
      /** What shell completion offers for it: live sessions, or the sessions of history. */
      completes?: "sessions" | "history";
    }[];
  };
  /** One-letter flag aliases (`{ v: "verbose" }` lets `-v` stand for `--verbose`). */
  aliases?: Readonly<Record<string, string>>;
  /**
   * The verb as an MCP tool (`src/mcp/tools.ts`): `false` when it is not one (it needs a
   * terminal), else arguments the tool requires beyond the CLI's, and a note for its description.
   */
  mcp?: false | { require?: readonly string[]; note?: string };
  load: () => Promise<VerbModule>;
}

/** An optional session id as the first word (`session diff [id]`), instead of `--session`. */
const sessionPositional: VerbSpec["positional"] = {
  kind: "tuple",
  parameters: [{
    brief: "the session (same as --session)",
    placeholder: "id",
    parse: (t: string) => t,
    optional: true,
    completes: "sessions",
  }],
};

/** Route → verb spec: the whole command line of lisa. */
export const VERBS: Readonly<Record<string, VerbSpec>> = {
  "version": {
    brief: "print lisa's version, commit and Deno version",
    flags: V.versionFlags,
    aliases: { v: "verbose" },
    load: () => lazyImport(new URL("./commands/version.ts", import.meta.url)),
  },
  "doctor": {
    brief: "check tmux, claude, codex, the runtime dir and LISA_* variables",
    flags: V.doctorFlags,
    load: () => lazyImport(new URL("./commands/doctor.ts", import.meta.url)),
  },
  "cleanup": {
    brief: "remove stale lisa sockets, artifacts of gone sessions and old startup scripts; " +
      "never kills a server",
    flags: V.cleanupFlags,
    load: () => lazyImport(new URL("./commands/cleanup.ts", import.meta.url)),
  },
  "completions": {
    brief: "print a shell completion script (bash, zsh or fish)",
    fullDescription: "Load it with: source <(lisa completions bash)  (zsh: source " +
      "<(lisa completions zsh); fish: lisa completions fish | source). Session names " +
      "complete from the live sessions (each once: its alias, or its name when that is what " +
      "was typed); history show's from history. The scripts ask lisa for them with " +
      "`lisa completions sessions|history [prefix]`.",
    flags: V.completionsFlags,
    mcp: false,
    positional: {
      kind: "tuple",
      parameters: [{
        brief: "the shell: bash, zsh or fish",
        placeholder: "bash|zsh|fish",
        parse: F.oneOf(["bash", "zsh", "fish", "sessions", "history"]),
      }, {
        brief: "with sessions or history: only the sessions whose alias or name starts with it",
        placeholder: "prefix",
        parse: F.parseText,
        optional: true,
      }],
    },
    load: () => lazyImport(new URL("./commands/completions.ts", import.meta.url)),
  },
  "mcp": {
    brief: "serve lisa's verbs as MCP tools over stdio (for Claude Code, Codex and other agents)",
    fullDescription: "Add it to an agent: claude mcp add lisa -- lisa mcp (codex: " +
      '[mcp_servers.lisa] command = "lisa", args = ["mcp"]). It runs until its stdin ' +
      "closes; the sessions it spawned keep running. --project-root is the default of every call.",
    flags: V.mcpFlags,
    mcp: false,
    load: () => lazyImport(new URL("./commands/mcp.ts", import.meta.url)),
  },
  "session name": {
    brief: "print the session name spawn would use",
    flags: V.nameFlags,
    load: () => lazyImport(new URL("./commands/session/name.ts", import.meta.url)),
  },
  "session spawn": {
    brief: "start an agent (or any command) in a new tmux session",
    flags: V.spawnFlags,
    load: () => lazyImport(new URL("./commands/session/spawn.ts", import.meta.url)),
  },
  "session diff": {
    brief: "what a --worktree session's agent changed since its base: its branch's commits " +
      "plus uncommitted and untracked files",
    flags: V.diffFlags,
    positional: sessionPositional,
    load: () => lazyImport(new URL("./commands/session/diff.ts", import.meta.url)),
  },
  "session merge": {
    brief: "commit a --worktree session's pending work and merge its branch into the main " +
      "checkout's current branch (a conflict aborts: exit 2)",
    flags: V.mergeFlags,
    positional: sessionPositional,
    load: () => lazyImport(new URL("./commands/session/merge.ts", import.meta.url)),
  },
  "session send": {
    brief: "send text (bracketed paste) and/or keys to a session",
    flags: V.sendFlags,
    load: () => lazyImport(new URL("./commands/session/send.ts", import.meta.url)),
  },
  "session turns": {
    brief: "list a session's turns (prompt, outcome, reply, tools) from history",
    flags: V.turnsFlags,
    load: () => lazyImport(new URL("./commands/session/turns.ts", import.meta.url)),
  },
  "session status": {
    brief: "classify a session: state, reason, exit code, and the signals seen",
    flags: V.statusFlags,
    load: () => lazyImport(new URL("./commands/session/status.ts", import.meta.url)),
  },
  "session explain": {
    brief: "show a session's status and its recent events (transitions, lifecycle)",
    flags: V.explainFlags,
    load: () => lazyImport(new URL("./commands/session/explain.ts", import.meta.url)),
  },
  "session monitor": {
    brief: "poll a session until it completes, fails, waits for input, or a gate opens " +
      "(exit 0 success, 2 non-success, 1 error)",
    flags: V.monitorFlags,
    load: () => lazyImport(new URL("./commands/session/monitor.ts", import.meta.url)),
  },
  "session capture": {
    brief: "print a session's pane text, or only what appeared since an earlier capture",
    flags: V.captureFlags,
    load: () => lazyImport(new URL("./commands/session/capture.ts", import.meta.url)),
  },
  "session snapshot": {
    brief: "a session's status and its pane text (with nextOffset and markers) at once",
    flags: V.snapshotFlags,
    load: () => lazyImport(new URL("./commands/session/snapshot.ts", import.meta.url)),
  },
  "session list": {
    brief: "list lisa sessions",
    flags: V.listFlags,
    load: () => lazyImport(new URL("./commands/session/list.ts", import.meta.url)),
  },
  "session attach": {
    brief: "attach this terminal to a live session (inside tmux: opens a new window)",
    fullDescription: "The session is a full name, an alias or an unambiguous prefix of an " +
      "alias, given as an argument or with --session; left out, the one running session of the " +
      "project (several: asked on a terminal). Detach with the tmux prefix then d.",
    flags: V.attachFlags,
    mcp: false,
    positional: {
      kind: "tuple",
      parameters: [{
        brief: "session name, alias or alias prefix",
        placeholder: "session",
        parse: F.parseText,
        optional: true,
        completes: "sessions",
      }],
    },
    load: () => lazyImport(new URL("./commands/session/attach.ts", import.meta.url)),
  },
  "session prune": {
    brief: "remove the files of finished or gone sessions older than --older-than (never a " +
      "live one), and event logs past retention",
    flags: V.pruneFlags,
    load: () => lazyImport(new URL("./commands/session/prune.ts", import.meta.url)),
  },
  "session watch": {
    brief: "one JSON line per state change of any session; with --until, exit 0 when met, " +
      "2 on --timeout-seconds",
    flags: V.watchFlags,
    mcp: {
      require: ["until"],
      note: "As a tool it returns once until is met (the until_met event) or timeoutSeconds " +
        "passes (the timeout event, not an error); the events before it are in events",
    },
    load: () => lazyImport(new URL("./commands/session/watch.ts", import.meta.url)),
  },
  "session exists": {
    brief: "exit 0 when the session exists, 1 when it does not",
    flags: V.existsFlags,
    load: () => lazyImport(new URL("./commands/session/exists.ts", import.meta.url)),
  },
  "session kill": {
    brief: "end a session: its descendants first, every process of its pane, its artifacts " +
      "(the event log is kept)",
    flags: V.killFlags,
    load: () => lazyImport(new URL("./commands/session/kill.ts", import.meta.url)),
  },
  "session kill-all": {
    brief: "end every lisa session on every lisa tmux server (or only the project's)",
    flags: V.killAllFlags,
    load: () => lazyImport(new URL("./commands/session/kill_all.ts", import.meta.url)),
  },
  "session tree": {
    brief: "show sessions as a tree of parent/child links (from metadata)",
    flags: V.treeFlags,
    load: () => lazyImport(new URL("./commands/session/tree.ts", import.meta.url)),
  },
  "session smoke": {
    brief: "nested self-test: L1 spawns L2 … LN (lisa itself, no agent), each monitors its " +
      "child and passes the markers up",
    flags: V.smokeFlags,
    load: () => lazyImport(new URL("./commands/session/smoke.ts", import.meta.url)),
  },
  "session detect-nested": {
    brief: "show whether a prompt would make spawn add the codex sandbox bypass",
    flags: V.detectNestedFlags,
    load: () => lazyImport(new URL("./commands/session/detect_nested.ts", import.meta.url)),
  },
  "session guard": {
    brief: "check whether a planned cleanup/kill command is risky for the default tmux " +
      "server (read-only; exit 1 when risky)",
    flags: V.guardFlags,
    load: () => lazyImport(new URL("./commands/session/guard.ts", import.meta.url)),
  },
  "session preflight": {
    brief: "an orchestrator's first step: environment checks plus a self-check of the " +
      "contracts it relies on (exit 0 ready, 1 not)",
    flags: V.preflightFlags,
    load: () => lazyImport(new URL("./commands/session/preflight.ts", import.meta.url)),
  },
  "session handoff": {
    brief: "a compact transfer payload: state, reason, nextAction, nextOffset, recent output " +
      "and events (incremental with --cursor-file)",
    flags: V.handoffFlags,
    load: () => lazyImport(new URL("./commands/session/handoff.ts", import.meta.url)),
  },
  "session context-pack": {
    brief: "a handoff that fits a --token-budget: state, recent events and the output's tail",
    flags: V.contextPackFlags,
    load: () => lazyImport(new URL("./commands/session/context_pack.ts", import.meta.url)),
  },
  "history list": {
    brief: "sessions lisa ran (alias, agent, project, start, duration, turns, final state)",
    flags: V.historyListFlags,
    load: () => lazyImport(new URL("./commands/history/list.ts", import.meta.url)),
  },
  "history show": {
    brief: "one session turn by turn: prompt, tools, reply, durations (and plans)",
    flags: V.historyShowFlags,
    positional: {
      kind: "tuple",
      parameters: [{
        brief: "session name or alias",
        placeholder: "session",
        parse: F.parseText,
        completes: "history",
      }],
    },
    load: () => lazyImport(new URL("./commands/history/show.ts", import.meta.url)),
  },
  "history search": {
    brief: "full-text search of prompts and replies (every word must match)",
    flags: V.historySearchFlags,
    positional: {
      kind: "tuple",
      parameters: [{ brief: "words (quote several)", placeholder: "words", parse: F.parseText }],
    },
    load: () => lazyImport(new URL("./commands/history/search.ts", import.meta.url)),
  },
  "skill install": {
    brief: "install lisa's skill (SKILL.md) where claude and codex read skills, so they know " +
      "how to drive lisa; never overwrites a file it did not write without --force",
    fullDescription: "Paths: claude ~/.claude/skills/lisa/SKILL.md ($CLAUDE_CONFIG_DIR/skills " +
      "when set), codex ~/.agents/skills/lisa/SKILL.md; with --scope project, " +
      "<project>/.claude/skills/lisa/ and <project>/.agents/skills/lisa/. The file carries a " +
      "line with its SHA-256: a file without it, or edited since, is not lisa's, and is only " +
      "replaced with --force. Installing again over lisa's own file updates it.",
    flags: V.skillInstallFlags,
    load: () => lazyImport(new URL("./commands/skill/install.ts", import.meta.url)),
  },
  "skill show": {
    brief: "print the SKILL.md that skill install writes (--json: its name, description, size)",
    flags: V.skillShowFlags,
    load: () => lazyImport(new URL("./commands/skill/show.ts", import.meta.url)),
  },
  "hosts list": {
    brief: "the hosts of the hosts file (name, ssh destination, lisa command line); connects " +
      "to none",
    fullDescription: "The file: LISA_HOSTS_FILE, else ${XDG_CONFIG_HOME:-~/.config}/lisa/" +
      'hosts.json, {"hosts": [{"name": "box1", "ssh": "box1", "lisa": "lisa"}]}. A file with ' +
      "any problem is refused as a whole (hosts_file_invalid). See docs/many-machines.md.",
    flags: V.hostsListFlags,
    load: () => lazyImport(new URL("./commands/hosts/list.ts", import.meta.url)),
  },
  "hosts check": {
    brief: "reach every host of the hosts file (in parallel): reachable or not, its lisa's " +
      "version and JSON contract, round-trip time (exit 1 when one is not ok)",
    flags: V.hostsCheckFlags,
    load: () => lazyImport(new URL("./commands/hosts/check.ts", import.meta.url)),
  },
};

/** Documentation of the route maps (groups). */
export const GROUPS: Readonly<Record<string, string>> = {
  "": "Start, watch, drive and clean up AI coding agents (claude, codex, any command) in tmux.",
  "session": "spawn, drive, watch and end sessions",
  "history": "what every session did: turns, tools, replies (a SQLite store)",
  "skill": "the Agent Skill that teaches claude and codex to drive lisa",
  "hosts": "other machines lisa reaches over ssh (--host, --all-hosts)",
};
