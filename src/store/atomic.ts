/**
 * Atomic private files: written to a temp file in the same directory (0600 unless a caller asks
 * otherwise; created new, so never through a symlink) and renamed over the target.
 */
import { FileUnsafeError } from "../base/errors.ts";
import { readTextFile } from "../base/text_file.ts";

const encoder = new TextEncoder();

function tempName(path: string, dir?: string): string {
  const rand = crypto.getRandomValues(new Uint32Array(2));
  const name = `${path.slice(path.lastIndexOf("/") + 1)}.tmp-${Deno.pid}-` +
    `${rand[0].toString(36)}${rand[1].toString(36)}`;
  return dir === undefined
    ? `${path.slice(0, path.lastIndexOf("/") + 1)}${name}`
    : `${dir}/${name}`;
}

/** A file written to a temp file and not yet renamed into place ({@link stageFileAtomic}). */
export interface StagedFile {
  /** The temp file that holds the data. */
  readonly temp: string;
  /** Renames the temp file over the target (a symlink there is replaced, never followed). */
  commit(): void;
  /** Removes the temp file (nothing happens to the target). */
  discard(): void;
}

/**
 * Writes `data` to a new temp file beside `path` (or in `options.tempDir`, which must be on the
 * same filesystem) with `options.mode` (default 0600), created new so never through a symlink;
 * the caller renames it into place with `commit()` or drops it with `discard()`, so several files
 * can be written all or none. Throws on I/O errors (the temp file is removed first).
 */
export function stageFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number; tempDir?: string } = {},
): StagedFile {
  const tmp = tempName(path, options.tempDir);
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  const file = Deno.openSync(tmp, { write: true, createNew: true, mode: options.mode ?? 0o600 });
  try {
    let off = 0;
    while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
    file.close();
  } catch (error) {
    try {
      file.close();
    } catch { /* already closed */ }
    discardTemp(tmp);
    throw error;
  }
  return { temp: tmp, commit: () => Deno.renameSync(tmp, path), discard: () => discardTemp(tmp) };
}

function discardTemp(tmp: string): void {
  try {
    Deno.removeSync(tmp);
  } catch { /* nothing to remove */ }
}

/**
 * Writes `data` to `path` atomically with mode 0600. A symlink at `path` is replaced, never
 * followed. Throws on I/O errors (the temp file is removed first).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const staged = stageFileAtomic(path, data);
  try {
    staged.commit();
  } catch (error) {
    staged.discard();
    throw error;
  }
}

/** Writes `value` as pretty JSON (with a trailing newline) atomically, mode 0600. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + "\n");
}

/**
 * Reads a text file, refusing symlinks and anything but a regular file. Returns undefined when it
 * does not exist.
 * Throws on other I/O errors.
 */
export function readTextIfExists(path: string): string | undefined {
  try {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) throw new FileUnsafeError(path, "it is a symlink");
    // A FIFO (or device) would block the read until some writer came, hanging list and cleanup.
    if (!info.isFile) throw new FileUnsafeError(path, "it is not a regular file");
    return readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * Reads and parses a JSON file. Returns undefined when it does not exist; throws when it cannot
 * be read or is not valid JSON.
 */
export function readJsonIfExists<T>(path: string): T | undefined {
  const text = readTextIfExists(path);
  return text === undefined ? undefined : JSON.parse(text) as T;
}

/** Removes `path`; returns true when something was removed. */
export function removeIfExists(path: string): boolean {
  try {
    Deno.removeSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** True when something (a file, dir or symlink, not followed) exists at `path`. */
export function pathExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Inode and mtime of `path` (not followed), or null when it does not exist. */
export function fileIdentity(path: string): string | null {
  try {
    const info = Deno.lstatSync(path);
    return `${info.ino ?? ""}:${info.mtime?.getTime() ?? ""}`;
  } catch {
    return null;
  }
}
