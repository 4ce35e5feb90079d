import { deepStrictEqual, ok } from "node:assert/strict";
import { childPids, hasProcFs, subtree } from "../../../src/proc/table.ts";

const linux = hasProcFs();

/** Runs `sh -c script` until `body` is done, then kills it. */
async function withShell(
  script: string,
  body: (pid: number) => void | Promise<void>,
): Promise<void> {
  const child = new Deno.Command("sh", { args: ["-c", script], stdout: "null", stderr: "null" })
    .spawn();
  try {
    await body(child.pid);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
  }
}

/** Waits until `pid` has a child that runs `sleep` (the shell forks, then the child execs). */
async function childrenOf(pid: number): Promise<number[]> {
  for (let i = 0; i < 300; i++) {
    const kids = childPids(pid);
    if (kids.length > 0 && subtree(pid).at(-1)?.argv[0] === "sleep") return kids;
    await new Promise((r) => setTimeout(r, 10));
  }
  return [];
}

Deno.test({
  name: "subtree finds the child of a single-threaded process (its task dir is not listed)",
  ignore: !linux,
  fn: () =>
    withShell("sleep 30 & wait", async (pid) => {
      const kids = await childrenOf(pid);
      ok(kids.length === 1, `children of the shell: ${kids}`);
      deepStrictEqual(childPids(pid, 1), kids);
      const tree = subtree(pid);
      deepStrictEqual(tree.map((p) => p.pid), [pid, ...kids]);
      deepStrictEqual(tree[1].argv, ["sleep", "30"]);
    }),
});

Deno.test({
  name: "subtree finds children of a multi-threaded process (this Deno) across its tasks",
  ignore: !linux,
  fn: () =>
    withShell("sleep 30", (pid) => {
      ok(Deno.readDirSync(`/proc/${Deno.pid}/task`).next().value !== undefined);
      const tree = subtree(Deno.pid);
      ok(tree.some((p) => p.pid === pid), `the spawned shell ${pid} is in this process's tree`);
      ok(childPids(Deno.pid).includes(pid));
    }),
});
