import { deepStrictEqual } from "node:assert/strict";
import { metaFilesOn } from "../../../../src/core/inventory/list.ts";
import type { MetaFile } from "../../../../src/core/session/locate.ts";

const file = (hash: string, session: string): MetaFile => ({
  hash,
  session,
  path: `/run/.lisa-${hash}-session-${session}-meta.json`,
});

const FILES = [
  file("aaaa1111", "lisa-a-1"),
  file("bbbb2222", "lisa-b-1"),
  file("aaaa1111", "lisa-a-2"),
  file("cccc3333", "lisa-c-1"),
];
const PROJECT = { hash: "aaaa1111", socketPath: "/sock/lisa-tmux-a-aaaa1111.sock" };

Deno.test("a list of the project's server reads only the metas filed under its hash", () => {
  deepStrictEqual(
    metaFilesOn(FILES, [PROJECT.socketPath], PROJECT).map((f) => f.session),
    ["lisa-a-1", "lisa-a-2"],
  );
});

Deno.test("a list of several servers reads the metas of each one's project, no others", () => {
  const sockets = [PROJECT.socketPath, "/sock/lisa-tmux-b-bbbb2222.sock"];
  deepStrictEqual(
    metaFilesOn(FILES, sockets, PROJECT).map((f) => f.session),
    ["lisa-a-1", "lisa-b-1", "lisa-a-2"],
  );
});

Deno.test("the project's own socket counts under the project's hash whatever its name", () => {
  // LISA_TMUX_SOCKET_DIR / slug changes: the project's socket is known by the project, not parsed.
  const project = { hash: "cccc3333", socketPath: "/elsewhere/custom.sock" };
  deepStrictEqual(
    metaFilesOn(FILES, [project.socketPath], project).map((f) => f.session),
    ["lisa-c-1"],
  );
});

Deno.test("a socket whose name carries no hash makes every meta worth reading", () => {
  deepStrictEqual(
    metaFilesOn(FILES, [PROJECT.socketPath, "/sock/odd.sock"], PROJECT),
    FILES,
  );
});
