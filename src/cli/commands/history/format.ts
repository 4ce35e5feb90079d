/** Small renderers shared by the history verbs. */

/** "850ms", "12s", "3m 5s", "2h 4m"; "-" when unknown. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "-";
  if (ms < 1000) return `${ms}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** `text` indented by `pad`, each line. */
export function indent(text: string, pad = "    "): string {
  return text.split("\n").map((l) => pad + l).join("\n");
}
