/**
 * Agent command builders (DESIGN §4.6), valid for claude 2.1.x and codex 0.169:
 *
 * | agent/mode         | command                                                                         |
 * |--------------------|---------------------------------------------------------------------------------|
 * | claude interactive | `claude [--dangerously-skip-permissions] [--model M] [extra…] [args] [prompt]`  |
 * | claude exec        | `claude -p <prompt> [--dangerously-skip-permissions] [--model M] [extra…] [args]` |
 * | codex interactive  | `codex --no-daemon [--model M] [extra…] [args] [prompt]`                         |
 * | codex exec         | `codex exec --sandbox workspace-write --skip-git-repo-check [--model M] [extra…] [args] <prompt>` |
 *
 * - `extra…` are argv words from other modules (hooks: `--settings …`/`--session-id …` for
 *   claude, `-c notify=[…]` for codex); they are quoted like every word lisa builds.
 * - `args` is `--agent-args`: shell syntax by design, inserted as-is.
 * - The prompt is always exactly one quoted word. A prompt that starts with `-` would be read
 *   as an option by the agent's own parser, so it is then placed last, after `--`.
 * - `--no-daemon` keeps interactive codex from starting `codex app-server` daemons that
 *   outlive the pane (codex 0.169 accepts it for the TUI only; `codex exec` rejects it).
 *   codex 0.169 removed `--full-auto` (it exits 2 on it), so lisa never passes it.
 */
import { UsageError } from "../core/errors.ts";
import type { Agent, Mode } from "../core/identity.ts";
import { shellQuote } from "../core/shell_quote.ts";

/** What an agent command is built from. */
export interface AgentCommandInput {
  agent: Agent;
  mode: Mode;
  /** The prompt (one argv word). Required in exec mode; optional interactively. */
  prompt?: string | null;
  model?: string | null;
  /** `--agent-args`: shell syntax, inserted verbatim. */
  agentArgs?: string | null;
  /** claude only: add `--dangerously-skip-permissions` (default true). */
  skipPermissions?: boolean;
  /** argv words placed after lisa's own flags, before `agentArgs` and the prompt. */
  extraArgs?: readonly string[];
}

/** A built agent command. */
export interface AgentCommand {
  /** The words lisa builds, unquoted, in order (`agentArgs` is not among them). */
  argv: string[];
  /** `--agent-args` shell text, inserted before `argv[agentArgsIndex]`; null when absent. */
  agentArgs: string | null;
  agentArgsIndex: number;
  /** The exact command line the session runs: argv words quoted, agent-args verbatim. */
  command: string;
}

/** Renders argv words (quoted) with raw shell text inserted before word `index`. */
export function renderCommand(argv: readonly string[], raw: string | null, index: number): string {
  const words = argv.map(shellQuote);
  if (raw !== null && raw.trim() !== "") words.splice(index, 0, raw.trim());
  return words.join(" ");
}

/**
 * Builds the command for `agent` in `mode`. Throws `missing_argument` (exit 1) when exec mode
 * has no prompt.
 */
export function buildAgentCommand(input: AgentCommandInput): AgentCommand {
  const prompt = input.prompt ?? "";
  const hasPrompt = prompt !== "";
  if (input.mode === "exec" && !hasPrompt) {
    throw new UsageError(
      `${input.agent} exec needs a prompt: pass --prompt (or --command to run something else)`,
      "missing_argument",
    );
  }
  const model = input.model ? ["--model", input.model] : [];
  const extra = [...(input.extraArgs ?? [])];
  const dashPrompt = prompt.startsWith("-");
  const promptTail = hasPrompt ? (dashPrompt ? ["--", prompt] : [prompt]) : [];

  let head: string[];
  let tail: string[];
  if (input.agent === "claude") {
    const skip = (input.skipPermissions ?? true) ? ["--dangerously-skip-permissions"] : [];
    if (input.mode === "exec") {
      // `-p` is claude's boolean print flag; the prompt is its positional argument.
      head = dashPrompt
        ? ["claude", "-p", ...skip, ...model, ...extra]
        : ["claude", "-p", prompt, ...skip, ...model, ...extra];
      tail = dashPrompt ? promptTail : [];
    } else {
      head = ["claude", ...skip, ...model, ...extra];
      tail = promptTail;
    }
  } else if (input.mode === "exec") {
    head = [
      "codex",
      "exec",
      "--sandbox",
      "workspace-write",
      "--skip-git-repo-check",
      ...model,
      ...extra,
    ];
    tail = promptTail;
  } else {
    head = ["codex", "--no-daemon", ...model, ...extra];
    tail = promptTail;
  }
  const agentArgs = input.agentArgs && input.agentArgs.trim() !== ""
    ? input.agentArgs.trim()
    : null;
  const argv = [...head, ...tail];
  return {
    argv,
    agentArgs,
    agentArgsIndex: head.length,
    command: renderCommand(argv, agentArgs, head.length),
  };
}
