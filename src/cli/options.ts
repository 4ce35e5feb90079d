/**
 * Shared flag parsers for commander options. They throw commander's InvalidArgumentError so the
 * message names the flag, and `run.ts` maps it to `invalid_argument`.
 */
import { InvalidArgumentError } from "@commander-js/extra-typings";

/** Parser for a whole number within [min, max]. */
export function intArg(min: number, max = Number.MAX_SAFE_INTEGER): (v: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        `expected a whole number from ${min} to ${max}, got "${value}"`,
      );
    }
    return n;
  };
}

/** Parser for a number (fractions allowed) within [min, max]. */
export function numberArg(min: number, max = Number.MAX_SAFE_INTEGER): (v: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got "${value}"`);
    }
    return n;
  };
}

/** Parser for "true" / "false" (also yes/no, 1/0). */
export function boolArg(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (["true", "yes", "1", "on"].includes(v)) return true;
  if (["false", "no", "0", "off"].includes(v)) return false;
  throw new InvalidArgumentError(`expected true or false, got "${value}"`);
}

/** Parser for one of `choices`. */
export function choiceArg<T extends string>(choices: readonly T[]): (v: string) => T {
  return (value: string) => {
    const v = value.trim().toLowerCase();
    if ((choices as readonly string[]).includes(v)) return v as T;
    throw new InvalidArgumentError(`expected one of ${choices.join("|")}, got "${value}"`);
  };
}

/** Parser for a comma-separated list (empty items dropped). */
export function listArg(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
}
