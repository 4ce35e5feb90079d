/**
 * Text given to lisa by value, by file or on stdin: `send --text/--text-file` and
 * `spawn --prompt/--prompt-file`. A single argv word is capped by the kernel (128 KiB on Linux),
 * so large input needs a file or stdin. The file is user input, not lisa's private state: a
 * symlink is followed, a FIFO (`<(…)`) is read like a file.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError, UsageError } from "../../base/errors.ts";
import { readCapped } from "../../base/io.ts";

/** Largest text accepted from a file or stdin (bytes). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Where one text comes from. */
export interface TextInputSpec {
  /** The value flag's text; `-` means stdin. */
  value?: string;
  /** The file flag's path; `-` means stdin. */
  file?: string;
  /** Flag names, for messages (`--text`, `--text-file`). */
  valueFlag: string;
  fileFlag: string;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function decode(bytes: Uint8Array, what: string): string {
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new UsageError(`${what} is larger than ${MAX_INPUT_BYTES} bytes`, "invalid_argument", {
      maxBytes: MAX_INPUT_BYTES,
    });
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new UsageError(`${what} is not valid UTF-8 text`, "invalid_argument");
  }
}

async function readFileCapped(path: string, fileFlag: string): Promise<Uint8Array> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new LisaError("file_not_found", `${fileFlag} "${path}" does not exist`, {
        usage: true,
        details: { path },
      });
    }
    throw new UsageError(
      `${fileFlag} "${path}" cannot be read: ${(error as Error).message}`,
      "invalid_argument",
      { path },
    );
  }
  try {
    if ((await file.stat()).isDirectory) {
      throw new UsageError(`${fileFlag} "${path}" is a directory`, "invalid_argument", { path });
    }
    return await readCapped(file, MAX_INPUT_BYTES);
  } catch (error) {
    if (error instanceof LisaError) throw error;
    throw new UsageError(
      `${fileFlag} "${path}" cannot be read: ${(error as Error).message}`,
      "invalid_argument",
      { path },
    );
  } finally {
    file.close();
  }
}

/**
 * The text of `spec`, or undefined when neither flag was given. Throws `conflicting_options`
 * for both flags, `file_not_found` for a missing file, `invalid_argument` for an unreadable
 * file (a directory, no permission), input over {@link MAX_INPUT_BYTES} or input that is not
 * UTF-8.
 */
export async function readTextInput(deps: Deps, spec: TextInputSpec): Promise<string | undefined> {
  if (spec.value !== undefined && spec.file !== undefined) {
    throw new UsageError(
      `${spec.valueFlag} and ${spec.fileFlag} exclude each other`,
      "conflicting_options",
    );
  }
  const source = spec.file ?? spec.value;
  if (source === undefined) return undefined;
  if (source === "-") {
    const flag = spec.file !== undefined ? spec.fileFlag : spec.valueFlag;
    return decode(await deps.io.readStdin(MAX_INPUT_BYTES), `${flag} - (stdin)`);
  }
  if (spec.file === undefined) return spec.value;
  return decode(await readFileCapped(spec.file, spec.fileFlag), `${spec.fileFlag} "${spec.file}"`);
}
