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
 * - A prompt longer than one argv word may be ({@link MAX_ARG_WORD_BYTES}: Linux refuses to
 *   exec a program with a longer word, "Argument list too long") goes to the agent's stdin in
 *   exec mode: `printf '%s' <prompt> | claude -p …` (claude reads stdin when `-p` has no prompt
 *   argument) or `… | codex exec … -` (`-` is codex's "read the prompt from stdin"). An
 *   interactive agent's stdin is the terminal, so there it is `prompt_too_large`.
 * - `--no-daemon` keeps interactive codex from starting `codex app-server` daemons that
 *   outlive the pane (codex 0.169 accepts it for the TUI only; `codex exec` rejects it).
 *   codex 0.169 removed `--full-auto` (it exits 2 on it), so lisa never passes it.
 */
import { LisaError, UsageError } from "../base/errors.ts";
import type { Agent, Mode } from "../base/types.ts";
import { feedStdin, shellQuote } from "../base/shell_quote.ts";

/**
 * Longest argv word (UTF-8 bytes) the kernel passes to a program: Linux's MAX_ARG_STRLEN is
 * 128 KiB including the word's terminating NUL.
 */
export const MAX_ARG_WORD_BYTES = 128 * 1024 - 1;

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
  /** Text the agent reads on stdin: the prompt when it is too long for argv; else null. */
  stdin: string | null;
  /**
   * The exact command line the session runs: argv words quoted, agent-args verbatim, preceded
   * by `printf '%s' <stdin> |` when {@link stdin} is set.
   */
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
 * has no prompt, and `prompt_too_large` when an interactive prompt exceeds
 * {@link MAX_ARG_WORD_BYTES}.
 */
export function buildAgentCommand(input: AgentCommandInput): AgentCommand {
  const text = input.prompt ?? "";
  const hasPrompt = text !== "";
  if (input.mode === "exec" && !hasPrompt) {
    throw new UsageError(
      `${input.agent} exec needs a prompt: pass --prompt (or --command to run something else)`,
      "missing_argument",
    );
  }
  const promptBytes = new TextEncoder().encode(text).length;
  const viaStdin = promptBytes > MAX_ARG_WORD_BYTES;
  if (viaStdin && input.mode === "interactive") {
    throw new LisaError(
      "prompt_too_large",
      `The prompt is ${promptBytes} bytes; an interactive ${input.agent} takes it as one ` +
        `argument, which the system caps at ${MAX_ARG_WORD_BYTES} bytes. Spawn without a ` +
        "prompt and paste it with `lisa session send --text-file`, or use --mode exec " +
        "(which reads a long prompt on stdin)",
      { usage: true, details: { promptBytes, maxBytes: MAX_ARG_WORD_BYTES } },
    );
  }
  // Below, `prompt` is the argv word; a prompt on stdin has none (codex gets `-` instead).
  const prompt = viaStdin ? "" : text;
  const model = input.model ? ["--model", input.model] : [];
  const extra = [...(input.extraArgs ?? [])];
  const dashPrompt = prompt.startsWith("-");
  const promptTail = viaStdin && input.agent === "codex"
    ? ["-"]
    : prompt !== ""
    ? (dashPrompt ? ["--", prompt] : [prompt])
    : [];

  let head: string[];
  let tail: string[];
  if (input.agent === "claude") {
    const skip = (input.skipPermissions ?? true) ? ["--dangerously-skip-permissions"] : [];
    if (input.mode === "exec") {
      // `-p` is claude's boolean print flag; the prompt is its positional argument.
      head = dashPrompt || prompt === ""
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
  const line = renderCommand(argv, agentArgs, head.length);
  return {
    argv,
    agentArgs,
    agentArgsIndex: head.length,
    stdin: viaStdin ? text : null,
    command: viaStdin ? feedStdin(text, line) : line,
  };
}
