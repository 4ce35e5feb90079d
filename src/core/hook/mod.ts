/**
 * The hook domain's face: `lisa hook <agent>` (called by agent hooks; lean by design, see
 * `run_hook.ts`) and the hook record it appends, which status and the turn readers parse.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts).
 */
export { boundRecord, type HookRecord } from "./hook_record.ts";
export { runHook } from "./run_hook.ts";
