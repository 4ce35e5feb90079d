/**
 * Minimal POSIX path helpers for hot-path modules, which avoid `node:path` (its compat layer
 * costs start-up time). Paths here are absolute POSIX paths or plain names.
 */

/** Joins path segments with "/" and collapses repeated separators. */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((p) => p.length > 0).join("/");
  return joined.replace(/\/{2,}/g, "/");
}

/** The last segment of `path` (trailing slashes ignored). */
export function baseName(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const i = trimmed.lastIndexOf("/");
  return i < 0 ? trimmed : trimmed.slice(i + 1);
}

/** Everything before the last segment of `path` ("/" for a top-level entry, "." for a name). */
export function dirName(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const i = trimmed.lastIndexOf("/");
  if (i < 0) return ".";
  if (i === 0) return "/";
  return trimmed.slice(0, i);
}

/** Resolves `path` against `cwd` lexically ("." and ".." removed), without touching the disk. */
export function resolvePath(cwd: string, path: string): string {
  const full = path.startsWith("/") ? path : `${cwd}/${path}`;
  const out: string[] = [];
  for (const seg of full.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}
