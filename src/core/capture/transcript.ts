/**
 * A claude session's transcript: the JSONL file claude keeps for the `--session-id` lisa gave it
 * (`$CLAUDE_CONFIG_DIR` or `~/.claude`, then `projects/<encoded working dir>/<id>.jsonl`, the
 * directory's non-alphanumerics as `-`; the project root, or its place in the session's worktree). `capture` reads it by default for claude sessions, as the
 * older Go lisa's skill describes; `--raw` reads the pane instead.
 */
import type { Deps } from "../../base/deps.ts";
import type { SessionMeta } from "../../base/types.ts";

/** One message of a transcript (text parts only; tool calls and results are left out). */
export interface TranscriptMessage {
  role: "user" | "assistant";
  text: string;
  timestamp: string | null;
}

/** A transcript read from disk. */
export interface Transcript {
  /** claude's session id. */
  claudeSession: string;
  path: string;
  messages: TranscriptMessage[];
}

/** Where claude keeps the transcript of `meta`'s session, or null for a non-claude session. */
export function transcriptPath(deps: Deps, meta: SessionMeta): string | null {
  if (meta.agent !== "claude" || meta.commandOnly || !meta.agentSessionId) return null;
  // Without its project root (an older or damaged meta) the transcript cannot be placed.
  if (meta.projectRoot === undefined) return null;
  const config = deps.env.CLAUDE_CONFIG_DIR || `${deps.env.HOME ?? ""}/.claude`;
  // claude keys the transcript by its working directory: a worktree session runs in the
  // worktree (in the same subdirectory as the project root within the repository).
  const wt = meta.worktree;
  const cwd = wt && meta.projectRoot.startsWith(wt.repoRoot)
    ? wt.path + meta.projectRoot.slice(wt.repoRoot.length)
    : meta.projectRoot;
  const encoded = cwd.replace(/[^A-Za-z0-9]/g, "-");
  return `${config}/projects/${encoded}/${meta.agentSessionId}.jsonl`;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((p) => p && typeof p === "object" && p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("\n");
}

/** The messages of a transcript's JSONL text (malformed lines skipped). Pure. */
export function parseTranscript(text: string): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (rec === null || typeof rec !== "object" || rec.isMeta === true) continue;
    const msg = rec.message as Record<string, unknown> | undefined;
    const role = msg?.role ?? rec.type;
    if (role !== "user" && role !== "assistant") continue;
    const body = textOf(msg?.content).trim();
    if (body === "") continue;
    out.push({
      role,
      text: body,
      timestamp: typeof rec.timestamp === "string" ? rec.timestamp : null,
    });
  }
  return out;
}

/** The session's transcript, or null when it has none (not claude, no file yet, unreadable). */
export function readTranscript(deps: Deps, meta: SessionMeta | undefined): Transcript | null {
  if (meta === undefined) return null;
  const path = transcriptPath(deps, meta);
  if (path === null) return null;
  let text: string;
  try {
    if (!Deno.lstatSync(path).isFile) return null;
    text = Deno.readTextFileSync(path);
  } catch {
    return null;
  }
  return { claudeSession: meta.agentSessionId!, path, messages: parseTranscript(text) };
}

/** The plain-text form of messages: `role: text` blocks separated by blank lines. */
export function transcriptText(messages: readonly TranscriptMessage[]): string {
  return messages.map((m) => `${m.role}: ${m.text}`).join("\n\n");
}
