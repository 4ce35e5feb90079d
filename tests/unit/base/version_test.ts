/** The commit `lisa version` reports (src/base/version.ts), read from a checkout's git files. */
import { strictEqual } from "node:assert/strict";
import { commitAt } from "../../../src/base/version.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";

Deno.test("the commit of a main checkout is read from its branch, loose or packed", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${dir}/.git/refs/heads`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/.git/HEAD`, "ref: refs/heads/main\n");
    Deno.writeTextFileSync(`${dir}/.git/packed-refs`, `# pack-refs\n${SHA} refs/heads/main\n`);
    strictEqual(commitAt(dir), SHA.slice(0, 12));
    Deno.writeTextFileSync(`${dir}/.git/refs/heads/main`, `${"f".repeat(40)}\n`);
    strictEqual(commitAt(dir), "f".repeat(12));
    strictEqual(commitAt(`${dir}/nowhere`), null);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the commit of a linked worktree is its own HEAD's, its branch in the main git dir", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const main = `${dir}/main/.git`;
    const own = `${main}/worktrees/wt`;
    Deno.mkdirSync(`${main}/refs/heads`, { recursive: true });
    Deno.mkdirSync(own, { recursive: true });
    Deno.mkdirSync(`${dir}/wt`);
    Deno.writeTextFileSync(`${dir}/wt/.git`, `gitdir: ${own}\n`);
    Deno.writeTextFileSync(`${own}/HEAD`, "ref: refs/heads/side\n");
    Deno.writeTextFileSync(`${own}/commondir`, "../..\n");
    Deno.writeTextFileSync(`${main}/refs/heads/side`, `${SHA}\n`);
    strictEqual(commitAt(`${dir}/wt`), SHA.slice(0, 12));
    // Detached: the worktree's HEAD is the commit itself.
    Deno.writeTextFileSync(`${own}/HEAD`, `${"e".repeat(40)}\n`);
    strictEqual(commitAt(`${dir}/wt`), "e".repeat(12));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
