/**
 * POSIX shell quoting. lisa never builds a shell string out of user text except through
 * {@link shellQuote}: a single-quoted word is taken literally by every POSIX shell (no `$`,
 * backtick, backslash or glob expansion), so a prompt such as `$(touch x)` stays text.
 */

/** Characters that never need quoting in a shell word. */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes `word` so a POSIX shell reads it back as exactly one word with exactly these bytes.
 * Plain words (letters, digits, `_@%+=:,./-`) stay as they are for readability; everything
 * else is wrapped in single quotes, with each `'` written as `'\''`. `""` becomes `''`.
 */
export function shellQuote(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Quotes every word of `argv` and joins them with spaces (a command line a shell reads back). */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}

/** True when `name` can be a shell variable name (`export NAME=…` would be accepted). */
export function isShellName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/**
 * A command line whose stdin is exactly `text` (no newline added): `printf '%s' <text> | line`.
 * `printf` is a bash builtin, so `text` is bounded by memory, not by the kernel's cap on one
 * argv word.
 */
export function feedStdin(text: string, line: string): string {
  return `printf '%s' ${shellQuote(text)} | ${line}`;
}
