/**
 * The spawn domain's face: `lisa session spawn`, the nested-prompt detection it applies (and
 * `detect-nested` shows), and the startup script's names kill looks processes up by.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts). The spawn
 * itself loads on its first call: kill, which looks processes up by the startup script's names,
 * and detect-nested's analysis do not load it.
 */
import { lazyImport } from "../../base/lazy.ts";

export {
  detectNested,
  explainPrompt,
  type NestedDetection,
  resolveNestedPolicy,
  rewritePrompt,
} from "./nested.ts";
export type { SpawnResult } from "./spawn.ts";
export { HEARTBEAT_SUBREAPER, SUBREAPER_ENV } from "./startup_script.ts";

type Spawn = typeof import("./spawn.ts");

/** `lisa session spawn` (`spawn.ts`). */
export async function spawnSession(...args: Parameters<Spawn["spawnSession"]>) {
  const m = await lazyImport<Spawn>(new URL("./spawn.ts", import.meta.url));
  return await m.spawnSession(...args);
}
