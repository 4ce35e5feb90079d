/**
 * A signal to lisa while it runs a child in a process group of its own, outside any section
 * that undoes itself: lisa dies of the signal as it would without listening, and the group
 * (which no Ctrl-C reaches) is ended with it.
 */
import { ok, strictEqual } from "node:assert/strict";

const FIXTURE = new URL("../../fixtures/group_child.ts", import.meta.url).pathname;

/** True while `pid` is a live (not zombie) process. */
function alive(pid: number): boolean {
  try {
    return !/\) [ZX] /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test(`${signal} outside a section: lisa dies of it, and its child's process group ends too`, async () => {
    const pidFile = await Deno.makeTempFile();
    let child = 0;
    try {
      const lisa = new Deno.Command(Deno.execPath(), {
        args: ["run", "-q", "--allow-all", FIXTURE, pidFile],
        stdout: "null",
        stderr: "null",
      }).spawn();
      const deadline = Date.now() + 20_000;
      while ((child = Number(Deno.readTextFileSync(pidFile).trim())) === 0) {
        ok(Date.now() < deadline, "the child started");
        await new Promise((r) => setTimeout(r, 50));
      }
      Deno.kill(lisa.pid, signal);
      const status = await lisa.status;
      strictEqual(status.signal, signal);
      const gone = Date.now() + 5000;
      while (alive(child) && Date.now() < gone) await new Promise((r) => setTimeout(r, 25));
      ok(!alive(child), "the child's group was ended");
    } finally {
      try {
        if (child > 0) Deno.kill(child, "SIGKILL");
      } catch { /* gone */ }
      await Deno.remove(pidFile);
    }
  });
}
