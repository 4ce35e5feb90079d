/** `lisa session send`: paste text (bracketed), press keys, press Enter. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf, sendFlags } from "../../verbs.ts";
import { sendToSession } from "../../../core/drive/send.ts";

/** Sends text and/or keys. */
export default async function send(
  this: LisaContext,
  flags: FlagsOf<typeof sendFlags>,
): Promise<void> {
  const result = await sendToSession(this.deps, {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    text: flags.text,
    textFile: flags.textFile,
    keys: flags.keys,
    enter: flags.enter ?? false,
    force: flags.force ?? false,
    readyTimeoutSeconds: flags.readyTimeout,
  });
  if (result.removedChars > 0) {
    this.deps.io.err(
      `lisa: warning: ${result.removedChars} control characters were removed from the text\n`,
    );
  }
  if (flags.jsonMin) printJson(this.deps.io, { session: result.session, ok: true });
  else if (flags.json) printJson(this.deps.io, { ...result });
  else this.deps.io.out("ok\n");
}
