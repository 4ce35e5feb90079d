/** Leaving `--session` out: one running session is picked; several are never guessed. */
import { ok, rejects, strictEqual } from "node:assert/strict";
import { pickSession } from "../../../../src/core/inventory/pick.ts";
import type { Runner } from "../../../../src/base/runner.ts";
import { fakeDeps } from "../../../helpers/fake_deps.ts";

function listing(names: string[]): Runner {
  return {
    run: (argv) => {
      if (!argv.includes("list-panes")) return Promise.reject(new Error(argv.join(" ")));
      // created, window index, window id, pane id, top, left, pid, dead, status, name
      const row = (n: string, i: number) =>
        ["1700000000", "0", `@${i}`, `%${i}`, "1", "1", "100", "0", "", n].join("\x1f");
      const stdout = names.map(row).join("\n") + "\n";
      return Promise.resolve({ code: 0, success: true, stdout, stderr: "" });
    },
  };
}

async function deps(names: string[]) {
  const dir = await Deno.makeTempDir();
  await Deno.chmod(dir, 0o700);
  return {
    dir,
    deps: fakeDeps({
      runner: listing(names),
      env: { LISA_RUNTIME_DIR: dir, LISA_TMUX_SOCKET_DIR: dir },
      cwd: dir,
    }),
  };
}

Deno.test("a given session is returned as is, without asking tmux", async () => {
  const { deps: d, dir } = await deps([]);
  try {
    strictEqual(await pickSession(d, "lisa-x", dir), "lisa-x");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("with exactly one running session, leaving it out picks it", async () => {
  const { deps: d, dir } = await deps(["lisa-only-one"]);
  try {
    strictEqual(await pickSession(d, undefined, dir), "lisa-only-one");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("with several and no one to ask (--json, no TTY), it is session_ambiguous", async () => {
  const { deps: d, dir } = await deps(["lisa-a", "lisa-b"]);
  try {
    await rejects(pickSession(d, undefined, dir), (e: Error & { code?: string }) => {
      strictEqual(e.code, "session_ambiguous");
      ok(e.message.includes("lisa-a") && e.message.includes("lisa-b"));
      return true;
    });
    // A person at a terminal is asked, and their choice wins.
    let asked = 0;
    const chosen = await pickSession(d, undefined, dir, (running) => {
      asked++;
      return Promise.resolve(running[1]);
    });
    strictEqual(chosen, "lisa-b");
    strictEqual(asked, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("with none running, leaving it out is session_not_found", async () => {
  const { deps: d, dir } = await deps([]);
  try {
    await rejects(pickSession(d, undefined, dir), /No running lisa session/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
