/**
 * A remote lisa's JSON documents as the local lisa hands them on: the same documents plus
 * `"host": NAME`, on the document and on each row it lists (the sessions of `list`, the nodes
 * of `tree`, the rows of `tree --flat`), so that every row names the machine it is on. Local
 * rows of a fleet view carry `"host": null`.
 */

/** A JSON object. */
export type Doc = Record<string, unknown>;

function isDoc(value: unknown): value is Doc {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `doc` with `host` as its first field (replacing one it had). Pure. */
function hostFirst(doc: Doc, host: string | null): Doc {
  const out: Doc = { host, ...doc };
  out.host = host;
  return out;
}

/** A tree node (and its children, to any depth) with `host`. Pure. */
function tagNode(node: unknown, host: string | null): unknown {
  if (!isDoc(node)) return node;
  const out = hostFirst(node, host);
  if (Array.isArray(node.children)) out.children = node.children.map((c) => tagNode(c, host));
  return out;
}

/**
 * `doc` with `host` on it and on its rows (`items` and `sessions` of list, `roots` and their
 * children, `rows`).
 * `host` goes first, so a person reading the line sees the machine first. Pure.
 */
export function withHost(doc: Doc, host: string | null): Doc {
  const out = hostFirst(doc, host);
  for (const key of ["items", "sessions", "rows"]) {
    const rows = doc[key];
    if (Array.isArray(rows)) out[key] = rows.map((r) => isDoc(r) ? hostFirst(r, host) : r);
  }
  if (Array.isArray(doc.roots)) out.roots = doc.roots.map((n) => tagNode(n, host));
  return out;
}

/** One line of a remote lisa's JSON output with `host` (a line that is not an object: as is). */
export function tagJsonLine(line: string, host: string): string {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    return line;
  }
  return isDoc(doc) ? JSON.stringify(withHost(doc, host)) : line;
}
