/**
 * What drive asks of status, loaded only when a send checks the agent's state or refuses a
 * finished session (`send_guard.ts`, `not_running.ts`), so a keys-only send never loads status.
 * A lazily imported module is bundled whole, status's face included if it were imported so; this
 * module re-exports only the name drive needs, and the bundler keeps only that.
 */
export { sessionStatus } from "../status/mod.ts";
