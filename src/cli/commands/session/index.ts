/**
 * `lisa session …`: the session verbs. Each verb lives in its own file.
 */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { registerName } from "./name.ts";
import { registerSpawn } from "./spawn.ts";
import { registerSend } from "./send.ts";
import { registerCapture } from "./capture.ts";
import { registerList } from "./list.ts";
import { registerExists } from "./exists.ts";
import { registerKill } from "./kill.ts";
import { registerKillAll } from "./kill_all.ts";
import { registerStatus } from "./status.ts";
import { registerExplain } from "./explain.ts";
import { registerMonitor } from "./monitor.ts";
import { registerSnapshot } from "./snapshot.ts";
import { registerTree } from "./tree.ts";
import { registerSmoke } from "./smoke.ts";
import { registerDetectNested } from "./detect_nested.ts";
import { registerGuard } from "./guard.ts";

/** Adds the `session` group and its verbs. */
export function registerSession(program: Command, ctx: CliContext): void {
  const session = program.command("session").description("spawn, drive, watch and end sessions");
  registerName(session, ctx);
  registerSpawn(session, ctx);
  registerSend(session, ctx);
  registerStatus(session, ctx);
  registerExplain(session, ctx);
  registerMonitor(session, ctx);
  registerCapture(session, ctx);
  registerSnapshot(session, ctx);
  registerList(session, ctx);
  registerExists(session, ctx);
  registerKill(session, ctx);
  registerKillAll(session, ctx);
  registerTree(session, ctx);
  registerSmoke(session, ctx);
  registerDetectNested(session, ctx);
  registerGuard(session, ctx);
}
