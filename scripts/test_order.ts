/**
 * Runs the test suite with its files in an order that spreads the slow ones (`deno task test`).
 * Deno sorts the files of a directory argument, so the `worktree_*` integration files (git
 * repositories, worktrees, a spawn each) started last and ran together, each 3–10× slower than
 * alone, and the run waited for them. Here the files are listed at run time (a new file is never
 * forgotten), the heavy ones spread among the other integration files with the slowest first, the
 * quick unit and cli files last, and `deno test` gets them in that order (it keeps the order of
 * the files it is given, and its parallel jobs take them in turn).
 *
 * `deno run -A scripts/test_order.ts [--print] DIR...`: `--print` prints the order instead.
 * Arguments after `--` go to `deno test`.
 */
import { joinPath } from "../src/base/paths.ts";

/** Test files deno itself would pick up in a directory. */
const TEST_FILE_RE = /(^|[_.])test\.(ts|tsx|mts|js|mjs|jsx)$/;
/** Files much slower than the others (each builds, or drives git worktrees): spread out. */
const HEAVY_RE = /(^|\/)(built_test|worktree_[^/]*)\.ts$/;
/** Tiers of quick tests, run last: they fill the jobs freed at the end. */
const QUICK_DIRS = ["tests/unit/", "tests/cli/"];

/** Every test file under `dir` (relative paths, sorted). */
function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = joinPath(dir, entry.name);
    if (entry.isDirectory) out.push(...testFiles(path));
    else if (entry.isFile && TEST_FILE_RE.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/**
 * The order of `files`: the heavy ones ({@link HEAVY_RE}, `built_test` first) each followed by
 * an even share of the other slow files, then the quick ones ({@link QUICK_DIRS}). The other slow
 * files go longest first by `weight` (the file's size: a long file holds more tests, and a long
 * one started last made the whole run wait for it), in their given order without it. Pure.
 */
export function spreadOrder(
  files: readonly string[],
  weight: (file: string) => number = () => 0,
): string[] {
  const quick = files.filter((f) => QUICK_DIRS.some((d) => f.startsWith(d)));
  const slow = files.filter((f) => !quick.includes(f));
  const heavy = slow.filter((f) => HEAVY_RE.test(f))
    .sort((a, b) => Number(b.includes("built_test")) - Number(a.includes("built_test")));
  const rest = slow.filter((f) => !heavy.includes(f)).sort((a, b) => weight(b) - weight(a));
  const share = heavy.length === 0 ? 0 : Math.ceil(rest.length / heavy.length);
  const out: string[] = [];
  heavy.forEach((h, i) => out.push(h, ...rest.slice(i * share, (i + 1) * share)));
  out.push(...rest.slice(heavy.length * share), ...quick);
  return out;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--");
  const own = at < 0 ? Deno.args : Deno.args.slice(0, at);
  const extra = at < 0 ? [] : Deno.args.slice(at + 1);
  const dirs = own.filter((a) => a !== "--print");
  const order = spreadOrder(
    dirs.flatMap((d) => testFiles(d.replace(/\/+$/, ""))),
    (f) => Deno.statSync(f).size,
  );
  if (own.includes("--print")) {
    // deno-lint-ignore no-console
    console.log(order.join("\n"));
  } else {
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: ["test", "-q", "--allow-all", "--parallel", ...extra, ...order],
      // Six files at a time even on 2 cores: the tests mostly wait on real time (122 s, where
      // four took 159 s in a fresh clone here).
      env: { DENO_JOBS: Deno.env.get("DENO_JOBS") ?? "6" },
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    Deno.exit(code);
  }
}
