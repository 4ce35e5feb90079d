/**
 * `monitor --until-jsonpath`: a small path gate over a poll's status report, the form the older
 * Go lisa's skill uses (`$.sessionState=waiting_input`). Grammar: `$.a.b` (the field is present
 * and not null/false/"") or `$.a.b=value` / `$.a.b!=value` (compared as text; `null`, `true`,
 * numbers compare by their JSON text). Pure.
 */
import { UsageError } from "../../base/errors.ts";

/** A parsed gate. */
export interface JsonPathGate {
  path: string[];
  op: "exists" | "eq" | "ne";
  value: string;
}

const PATH_RE = /^\$((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+)\s*(?:(!=|==|=)\s*(.*))?$/s;

/** Parses `text`; throws `invalid_argument` naming the expected form. */
export function parseJsonPathGate(text: string): JsonPathGate {
  const m = PATH_RE.exec(text.trim());
  if (m === null) {
    throw new UsageError(
      `--until-jsonpath expects '$.field=value' or '$.field' (e.g. '$.sessionState=waiting_input'), got "${text}"`,
    );
  }
  const path = [...m[1].matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)].map((p) => p[1] ?? p[2]);
  let value = (m[3] ?? "").trim();
  if (/^(["']).*\1$/s.test(value)) value = value.slice(1, -1);
  return { path, op: m[2] === undefined ? "exists" : m[2] === "!=" ? "ne" : "eq", value };
}

/** True when `doc` satisfies `gate`. */
export function jsonPathMatches(gate: JsonPathGate, doc: unknown): boolean {
  let cur: unknown = doc;
  for (const key of gate.path) {
    if (cur === null || typeof cur !== "object") {
      cur = undefined;
      break;
    }
    cur = (cur as Record<string, unknown>)[key];
  }
  if (gate.op === "exists") return cur !== undefined && cur !== null && cur !== false && cur !== "";
  const text = typeof cur === "string" ? cur : cur === undefined ? "" : JSON.stringify(cur);
  return gate.op === "eq" ? text === gate.value : text !== gate.value;
}
