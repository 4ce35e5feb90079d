/**
 * The drive domain's face: input into a session's pane (`send`: bracketed paste, keys, Enter,
 * guarded by the agent's state) and a person's terminal onto it (`attach`), plus the text input
 * (value, file or stdin) send and spawn read.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts). `send` and
 * `attach` load their modules on their first call: spawn, which reads its prompt through this
 * face, does not load them.
 */
import { lazyImport } from "../../base/lazy.ts";

export { sanitizePasteText } from "./paste_text.ts";
export type { SendOptions, SendResult } from "./send.ts";
export { readTextInput } from "./text_input.ts";

type Attach = typeof import("./attach.ts");
type Send = typeof import("./send.ts");

/** `lisa session attach` (`attach.ts`). */
export async function attachSession(...args: Parameters<Attach["attachSession"]>) {
  const m = await lazyImport<Attach>(new URL("./attach.ts", import.meta.url));
  return await m.attachSession(...args);
}

/** `lisa session send` (`send.ts`). */
export async function sendToSession(...args: Parameters<Send["sendToSession"]>) {
  const m = await lazyImport<Send>(new URL("./send.ts", import.meta.url));
  return await m.sendToSession(...args);
}
