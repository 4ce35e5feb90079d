/**
 * What the default (non-raw) capture view hides: lisa's own wrapper markers, and agent start-up
 * chatter (MCP/auth warnings, banners, update notices, tips). The rules are data, so a change in
 * an agent's UI is a change here. They are deliberately narrow: each is anchored at the start of
 * the line and names words an agent's real answer would not start a line with, because hiding a
 * line of a real answer is far worse than showing a line of noise.
 */

/** A one-line noise rule. */
export interface NoiseLineRule {
  /** Short name (for docs and tests). */
  name: string;
  pattern: RegExp;
  /** Also hide the indented lines that directly follow (a wrapped multi-line warning). */
  continuation?: boolean;
}

/** A block of noise: `start` on one line, `next` on the line after it, `end` closes it. */
export interface NoiseBlockRule {
  name: string;
  start: RegExp;
  next: RegExp;
  end: RegExp;
  /** A block longer than this is not this banner: nothing is hidden. */
  maxLines: number;
}

/** Noise lines, each with why it is noise. */
export const NOISE_LINE_RULES: readonly NoiseLineRule[] = [
  // codex: MCP server start-up logs ("mcp: foo started", "mcp startup: 1/2 ready").
  { name: "codex_mcp_log", pattern: /^\s*mcp(?: startup)?: / },
  // codex: an MCP client that failed to start; its wrapped explanation is indented below.
  { name: "codex_mcp_client_failed", pattern: /^\s*⚠ MCP client for /, continuation: true },
  // codex: summary warning after MCP servers failed or timed out at start-up.
  { name: "codex_mcp_startup_incomplete", pattern: /^\s*⚠ MCP startup incomplete/ },
  // codex: progress line while MCP servers boot ("Starting MCP servers (1/3): foo").
  { name: "codex_mcp_starting", pattern: /^\s*[•◦·]?\s*Starting MCP servers \(\d+\/\d+\)/ },
  // codex: notice about experimental features switched on in config.toml.
  { name: "codex_under_development", pattern: /^\s*⚠ Under-development features enabled:/ },
  // codex: tracing log lines of its own crates leaking onto the terminal (state db warnings).
  {
    name: "codex_tracing_log",
    pattern: /^\s*\d{4}-\d\d-\d\dT[\d:.]+Z?\s+(?:ERROR|WARN)\s+codex_[a-z_]+(?:::[a-z_]+)*: /,
  },
  // claude: status notice that some configured MCP servers did not connect.
  { name: "claude_mcp_failed", pattern: /^\s*\d+ MCP servers? failed(?: to connect)? · \/mcp/ },
  // claude: MCP configuration diagnostics ("[MCP] …", "MCP server "x" …: connection failed").
  { name: "claude_mcp_diag", pattern: /^\s*(?:⚠\s*)?\[MCP\] / },
  {
    name: "claude_mcp_server_warning",
    pattern: /^\s*(?:⚠\s*)?MCP server ["“][^"”]+["”] (?:failed|connection|timed out|error)/i,
  },
  // claude: both a claude.ai token and an API key are set (harmless for lisa's runs).
  { name: "claude_auth_conflict", pattern: /^\s*(?:⚠\s*)?Auth conflict: / },
  // claude: note that an API key from the environment is in use instead of a subscription.
  {
    name: "claude_api_key_notice",
    pattern: /^\s*(?:⚠\s*)?(?:Using|Detected) (?:a custom )?API key from (?:the )?environment/i,
  },
  // claude: update notices.
  { name: "claude_update_installed", pattern: /^\s*✓?\s*Update installed · Restart to apply/ },
  { name: "claude_auto_update_failed", pattern: /^\s*✗?\s*Auto-update failed · / },
  // codex: "✨ Update available! 0.1 -> 0.2" banner and its instructions (often inside a box).
  {
    name: "codex_update_available",
    pattern: /^\s*[│|]?\s*✨?\s*(?:⬆️?\s*)?Update available! \S+ -> \S+/,
  },
  {
    name: "codex_update_instructions",
    pattern: /^\s*[│|]?\s*Run (?:npm install -g @openai\/codex|brew upgrade codex)\S* to update/,
  },
  {
    name: "codex_release_notes",
    pattern: /^\s*[│|]?\s*See full release notes: https:\/\/github\.com\/openai\/codex/,
  },
  // claude: start-up tips ("※ Tip: …", "⎿  Tip: …"); a bare "Tip:" is kept, an answer may use it.
  { name: "claude_tip", pattern: /^\s*(?:※|⎿)\s*Tip: / },
  // claude 2.x: the three-line logo banner ("▐▛███▜▌   Claude Code v2.1.197" and its rows).
  { name: "claude_logo_banner", pattern: /^\s*[▐▛▜▌▝▘█▀▄]{2,}[▐▛▜▌▝▘█▀▄ ]*\s{2,}\S/ },
];

/** Noise blocks (banners drawn over several lines). */
export const NOISE_BLOCK_RULES: readonly NoiseBlockRule[] = [
  // claude 1.x/2.0: the boxed "✻ Welcome to Claude Code!" banner.
  {
    name: "claude_welcome_box",
    start: /^\s*╭─{3,}╮\s*$/,
    next: /^\s*│\s*✻ Welcome to Claude Code/,
    end: /^\s*╰─{3,}╯\s*$/,
    maxLines: 16,
  },
  // codex interactive: the boxed ">_ OpenAI Codex (v0.169.0)" header with model and directory.
  {
    name: "codex_header_box",
    start: /^\s*╭─{3,}╮\s*$/,
    next: /^\s*│\s*>_ OpenAI Codex \(v[\d.]+/,
    end: /^\s*╰─{3,}╯\s*$/,
    maxLines: 12,
  },
  // codex exec: "OpenAI Codex v0.169.0 (research preview)", a dashed rule, key: value settings
  // (workdir, model, provider, approval, sandbox, session id), and a closing dashed rule.
  {
    name: "codex_exec_header",
    start: /^OpenAI Codex v\d+\.\d+/,
    next: /^-{4,}$/,
    end: /^-{4,}$/,
    maxLines: 16,
  },
];

/** lisa's wrapper markers (`__LISA_SESSION_START__:{runId}:{ts}`, `…DONE__:{runId}:{exit}`). */
const LISA_MARKER_RE = /__LISA_SESSION_(?:START|DONE)__:[A-Za-z0-9._-]*:-?\d*$/;

/**
 * Hides lisa's wrapper markers. A marker that follows output without a newline
 * (`result__LISA_SESSION_DONE__:r:0`) is cut from its line; a line with only a marker goes.
 */
export function hideLisaMarkers(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const m = LISA_MARKER_RE.exec(line);
    if (m === null) {
      out.push(line);
      continue;
    }
    const rest = line.slice(0, m.index).trimEnd();
    if (rest !== "") out.push(rest);
  }
  return out;
}

/** Index just past the block that starts at `i`, or -1 when no block rule matches there. */
function blockEnd(lines: readonly string[], i: number): number {
  for (const rule of NOISE_BLOCK_RULES) {
    if (!rule.start.test(lines[i]) || i + 1 >= lines.length || !rule.next.test(lines[i + 1])) {
      continue;
    }
    const last = Math.min(lines.length, i + rule.maxLines);
    for (let j = i + 2; j < last; j++) {
      if (rule.end.test(lines[j])) return j + 1;
    }
  }
  return -1;
}

/** Drops the lines matched by {@link NOISE_LINE_RULES} and {@link NOISE_BLOCK_RULES}. */
export function filterNoise(lines: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const end = blockEnd(lines, i);
    if (end > 0) {
      i = end;
      continue;
    }
    const rule = NOISE_LINE_RULES.find((r) => r.pattern.test(line));
    if (rule === undefined) {
      out.push(line);
      i++;
      continue;
    }
    i++;
    if (rule.continuation) {
      while (i < lines.length && /^\s+\S/.test(lines[i])) i++;
    }
  }
  return out;
}
