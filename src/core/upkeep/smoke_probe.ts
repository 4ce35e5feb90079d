/**
 * The nested-wording checks of `session smoke` (the older Go lisa's `--prompt-style` and
 * `--matrix-file`): before the run, the nested detection of codex exec is asked about prompts of
 * known wording, and each answer is compared with what that wording must give. Pure apart from
 * reading the matrix file.
 */
import { UsageError } from "../../base/errors.ts";
import { detectNested, type NestedDetection } from "../spawn/mod.ts";

/** The prompt wordings `--prompt-style` knows, with the bypass each must (not) trigger. */
export const PROMPT_STYLES: Readonly<Record<string, { prompt: string; bypass: boolean }>> = {
  "dot-slash": { prompt: "Use ./lisa for child orchestration.", bypass: true },
  "spawn": { prompt: "Run lisa session spawn for the child session.", bypass: true },
  "nested": { prompt: "Build a nested lisa chain and report markers.", bypass: true },
  "neutral": { prompt: "No nesting requested here.", bypass: false },
};

/** The result of one probe (`promptProbe`, and each matrix row). */
export interface PromptProbe {
  style?: string;
  prompt: string;
  /** `bypass`, `full-auto` (no bypass) or `any`. */
  expect: "bypass" | "full-auto" | "any";
  detection: NestedDetection;
  ok: boolean;
  line?: number;
}

function probe(prompt: string, expect: PromptProbe["expect"]): PromptProbe {
  const detection = detectNested("codex", "exec", prompt);
  const ok = expect === "any" || detection.autoBypass === (expect === "bypass");
  return { prompt, expect, detection, ok };
}

/** The probe of `--prompt-style style` (null for `none`). */
export function promptStyleProbe(style: string): PromptProbe | null {
  const s = PROMPT_STYLES[style];
  if (s === undefined) return null;
  return { style, ...probe(s.prompt, s.bypass ? "bypass" : "full-auto") };
}

/**
 * The rows of a matrix file: `mode|prompt` per line (`mode`: bypass, full-auto or any; blank
 * lines and `#` comments skipped). Throws `invalid_argument` naming the bad line.
 */
export function parseMatrix(
  text: string,
): { line: number; expect: PromptProbe["expect"]; prompt: string }[] {
  const rows = [];
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const bar = line.indexOf("|");
    const mode = bar < 0 ? "" : line.slice(0, bar).trim().toLowerCase();
    if (mode !== "bypass" && mode !== "full-auto" && mode !== "any") {
      throw new UsageError(
        `matrix line ${i + 1}: expected "bypass|full-auto|any|<prompt>", got "${line}"`,
      );
    }
    rows.push({
      line: i + 1,
      expect: mode as PromptProbe["expect"],
      prompt: line.slice(bar + 1).trim(),
    });
  }
  return rows;
}

/** Runs every matrix row; returns all probes (failed ones have `ok: false`). */
export function runMatrix(text: string): PromptProbe[] {
  return parseMatrix(text).map((r) => ({ ...probe(r.prompt, r.expect), line: r.line }));
}
