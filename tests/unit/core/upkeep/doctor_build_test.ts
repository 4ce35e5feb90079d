/** doctor's check of a built lisa against the checkout it was built from. */
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { checkBuild } from "../../../../src/core/upkeep/doctor.ts";

/** A checkout with main.ts, scripts/build.ts, a git HEAD at `commit` and a dist/ folder. */
function checkout(commit: string): string {
  const dir = Deno.makeTempDirSync({ prefix: "lisa-doctor-build-" });
  Deno.mkdirSync(`${dir}/scripts`);
  Deno.mkdirSync(`${dir}/dist/verbs`, { recursive: true });
  Deno.mkdirSync(`${dir}/.git/refs/heads`, { recursive: true });
  Deno.writeTextFileSync(`${dir}/main.ts`, "");
  Deno.writeTextFileSync(`${dir}/scripts/build.ts`, "");
  Deno.writeTextFileSync(`${dir}/.git/HEAD`, "ref: refs/heads/main\n");
  Deno.writeTextFileSync(`${dir}/.git/refs/heads/main`, `${commit}${"0".repeat(28)}\n`);
  return dir;
}

const DENO = ["/usr/bin/deno", "run", "-q", "--allow-all", "--no-config"];

Deno.test("a build from the checkout's HEAD is current; from an older commit, stale", () => {
  const dir = checkout("abcdef123456");
  try {
    const self = [...DENO, `${dir}/dist/lisa.js`];
    deepStrictEqual(checkBuild(self, "abcdef123456"), {
      builtFrom: "abcdef123456",
      checkout: dir,
      checkoutCommit: "abcdef123456",
      stale: false,
    });
    // Built with uncommitted changes on top of HEAD: not stale (the commit is the same).
    strictEqual(checkBuild(self, "abcdef123456+dirty")?.stale, false);
    strictEqual(checkBuild(self, "0123456789ab")?.stale, true);
    // A test build deeper in dist/ finds the same checkout.
    strictEqual(
      checkBuild([...DENO, `${dir}/dist/test-build/lisa.js`], "0123456789ab")?.checkout,
      dir,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("from source, compiled, or outside a checkout: nothing to check", () => {
  strictEqual(checkBuild(["/usr/bin/deno", "run", "/repo/main.ts"], null), null);
  strictEqual(checkBuild(["/usr/local/bin/lisa"], null), null);
  const dir = Deno.makeTempDirSync();
  try {
    strictEqual(checkBuild([...DENO, `${dir}/lisa.js`], "abcdef123456"), null);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
