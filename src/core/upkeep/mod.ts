/**
 * The upkeep domain's face: the housekeeping and self-check verbs: `cleanup`, `session prune`,
 * `doctor`, `session guard`, `session preflight` and `session smoke`.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts). The verbs
 * share nothing but this face, so each loads its own module on its first call: a verb importing
 * the face does not load (or, built, bundle) the other five.
 */
import { lazyImport } from "../../base/lazy.ts";

type Cleanup = typeof import("./cleanup.ts");
type Doctor = typeof import("./doctor.ts");
type Guard = typeof import("./guard.ts");
type Preflight = typeof import("./preflight.ts");
type Prune = typeof import("./prune_sessions.ts");
type Smoke = typeof import("./smoke.ts");

/** `lisa cleanup` (`cleanup.ts`). */
export async function runCleanup(...args: Parameters<Cleanup["runCleanup"]>) {
  const m = await lazyImport<Cleanup>(new URL("./cleanup.ts", import.meta.url));
  return await m.runCleanup(...args);
}

/** `lisa doctor` (`doctor.ts`). */
export async function runDoctor(...args: Parameters<Doctor["runDoctor"]>) {
  const m = await lazyImport<Doctor>(new URL("./doctor.ts", import.meta.url));
  return await m.runDoctor(...args);
}

/** `lisa session guard` (`guard.ts`). */
export async function runGuard(...args: Parameters<Guard["runGuard"]>) {
  const m = await lazyImport<Guard>(new URL("./guard.ts", import.meta.url));
  return await m.runGuard(...args);
}

/** `lisa session preflight` (`preflight.ts`). */
export async function runPreflight(...args: Parameters<Preflight["runPreflight"]>) {
  const m = await lazyImport<Preflight>(new URL("./preflight.ts", import.meta.url));
  return await m.runPreflight(...args);
}

/** `lisa session prune` (`prune_sessions.ts`). */
export async function pruneSessions(...args: Parameters<Prune["pruneSessions"]>) {
  const m = await lazyImport<Prune>(new URL("./prune_sessions.ts", import.meta.url));
  return await m.pruneSessions(...args);
}

/** `lisa session smoke` (`smoke.ts`). */
export async function runSmoke(...args: Parameters<Smoke["runSmoke"]>) {
  const m = await lazyImport<Smoke>(new URL("./smoke.ts", import.meta.url));
  return await m.runSmoke(...args);
}
