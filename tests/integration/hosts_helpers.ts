/**
 * Shared set-up of the hosts tests (issue 24): a world, a real sshd serving "other machines"
 * (`tests/helpers/sshd.ts`), the world's lisa pointed at them, and everything ended in
 * `finally`. When no sshd can run on this machine the tests are registered as ignored, with the
 * reason in their names.
 */
import { makeWorld, type World } from "../helpers/world.ts";
import { type Sshd, type SshdOptions, sshdUnavailable, startSshd } from "../helpers/sshd.ts";

/** Why the hosts tests cannot run here (null: they can). */
export const SSHD_UNAVAILABLE = await sshdUnavailable();

/** Registers a hosts test: ignored (and saying why) when no sshd can run here. */
export function hostsTest(name: string, fn: () => Promise<void>): void {
  Deno.test({
    name: SSHD_UNAVAILABLE === null ? name : `${name} (ignored: ${SSHD_UNAVAILABLE})`,
    ignore: SSHD_UNAVAILABLE !== null,
    fn,
  });
}

/** A world with hosts: the world, its sshd, and the hosts' lisas. */
export interface Fleet {
  world: World;
  sshd: Sshd;
}

/** Runs `body` with a world whose hosts file names the hosts of `options`; ends it all. */
export async function withFleet(
  options: SshdOptions & { env?: Record<string, string> },
  body: (fleet: Fleet) => Promise<void>,
): Promise<void> {
  const world = await makeWorld({ env: options.env });
  let sshd: Sshd | string | undefined;
  try {
    sshd = await startSshd(world, options);
    if (typeof sshd === "string") throw new Error(sshd);
    Object.assign(world.env, sshd.env);
    await body({ world, sshd });
  } finally {
    if (typeof sshd === "object") await sshd.stop();
    await world.dispose();
  }
}

/** Spawns a command session on `host` (through `--host`) and returns its `spawn --json`. */
export async function spawnOn(
  fleet: Fleet,
  host: string | null,
  command: string,
  extra: string[] = [],
): Promise<Record<string, unknown>> {
  const r = await fleet.world.lisaInProcess([
    "session",
    "spawn",
    ...(host === null ? [] : ["--host", host]),
    "--command",
    command,
    ...extra,
    "--json",
  ]);
  if (r.code !== 0 || r.json === undefined) {
    throw new Error(`spawn on ${host ?? "this machine"} failed: ${r.stdout}${r.stderr}`);
  }
  return r.json;
}

/** Names of the files in `dir` (none when it does not exist). */
export function filesIn(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  } catch {
    return [];
  }
}
