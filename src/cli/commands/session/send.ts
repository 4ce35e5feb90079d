/** `lisa session send`: paste text (bracketed), press keys, press Enter; `--wait` for the turn. */
import { warn } from "../../../base/io.ts";
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { sendFlags } from "./send_spec.ts";
import { sendToSession } from "../../../core/drive/mod.ts";
import { lazyImport } from "../../../base/lazy.ts";

type WaitModule = typeof import("../../../core/turns/mod.ts");

/** Sends text and/or keys; with `--wait`, waits for the turn and prints its reply. */
export default async function send(
  this: LisaContext,
  flags: FlagsOf<typeof sendFlags>,
): Promise<void> {
  const options = {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    text: flags.text,
    textFile: flags.textFile,
    keys: flags.keys,
    enter: flags.enter ?? false,
    force: flags.force ?? false,
    readyTimeoutSeconds: flags.readyTimeout,
    confirmTimeoutSeconds: flags.confirmTimeout,
    retryEnter: flags.retryEnter ?? false,
  };
  if (flags.wait) {
    const { sendAndWait } = await lazyImport<WaitModule>(
      new URL("../../../core/turns/mod.ts", import.meta.url),
    );
    const result = await sendAndWait(this.deps, {
      ...options,
      timeoutSeconds: flags.timeoutSeconds,
    });
    if (result.sent.removedChars > 0) {
      warn(
        this.deps.io,
        `${result.sent.removedChars} control characters were removed from the text`,
      );
    }
    this.exitCode = result.outcome === "completed" ? 0 : 2;
    if (flags.json) {
      printJson(this.deps.io, { ...result });
      return;
    }
    if (result.reply !== "") this.deps.io.out(result.reply.replace(/\n?$/, "\n"));
    if (result.outcome !== "completed") {
      const why = result.error ?? result.waitingFor ?? "";
      this.deps.io.err(`lisa: turn ${result.outcome}${why ? `: ${why}` : ""}\n`);
    }
    return;
  }
  const result = await sendToSession(this.deps, options);
  if (result.removedChars > 0) {
    warn(this.deps.io, `${result.removedChars} control characters were removed from the text`);
  }
  if (flags.jsonMin) printJson(this.deps.io, { session: result.session, ok: true });
  else if (flags.json) printJson(this.deps.io, { ...result });
  else this.deps.io.out("ok\n");
}
