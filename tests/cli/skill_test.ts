/**
 * `lisa skill install` and `lisa skill show` through `main()`, on real files in a temp HOME and
 * project: where each agent's file goes, what a dry run does (nothing), what is refused (a file
 * lisa did not write, an edited one, a symlink) and what `--force` does, all targets or none.
 */
import { deepStrictEqual, notStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import { ownershipOf, skillFile } from "../../src/core/skill/content.ts";
import { fakeDeps } from "../helpers/fake_deps.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown>;
}

interface Place {
  base: string;
  home: string;
  project: string;
  claude: string;
  codex: string;
  run(args: string[], env?: Record<string, string>): Promise<Run>;
  dispose(): void;
}

async function place(): Promise<Place> {
  const base = Deno.realPathSync(await Deno.makeTempDir({ prefix: "lisa-skill-test-" }));
  const home = `${base}/home`;
  const project = `${base}/project`;
  Deno.mkdirSync(home);
  Deno.mkdirSync(project);
  return {
    base,
    home,
    project,
    claude: `${home}/.claude/skills/lisa/SKILL.md`,
    codex: `${home}/.agents/skills/lisa/SKILL.md`,
    async run(args, env = {}) {
      const io = new MemoryIo();
      const deps = fakeDeps({ io, env: { HOME: home, ...env }, cwd: project });
      const code = await main(["skill", ...args], deps);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(io.stdout);
      } catch { /* not JSON */ }
      return { code, stdout: io.stdout, stderr: io.stderr, json };
    },
    dispose: () => Deno.removeSync(base, { recursive: true }),
  };
}

/** Every file and link under `dir`, relative, sorted (`link -> target` for links). */
function tree(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return out;
  }
  for (const e of entries) {
    const rel = `${prefix}${e.name}`;
    if (e.isSymlink) out.push(`${rel} -> ${Deno.readLinkSync(`${dir}/${e.name}`)}`);
    else if (e.isDirectory) out.push(`${rel}/`, ...tree(`${dir}/${e.name}`, `${rel}/`));
    else out.push(rel);
  }
  return out.sort();
}

type Target = { agent: string; scope: string; path: string; state: string; action: string };

function targets(r: Run): Target[] {
  return (r.json.targets as Target[]).map(({ agent, scope, path, state, action }) => ({
    agent,
    scope,
    path,
    state,
    action,
  }));
}

/** A skill file of another lisa: lisa's mark over another text (so still lisa's, unedited). */
async function otherLisasFile(): Promise<string> {
  const { text } = await skillFile();
  const markLine = text.split("\n").find((l) => l.startsWith("<!-- lisa skill: "))!;
  const older = text.replace(markLine + "\n", "").replace("## States", "## States (older)");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(older));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const at = older.indexOf("\n---\n", 4) + 5;
  const mark = markLine.replace(/sha256=[0-9a-f]{64}/, `sha256=${hex}`).replace("0.1.0", "0.0.9");
  return older.slice(0, at) + mark + "\n" + older.slice(at);
}

function write(path: string, text: string): void {
  Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(path, text);
}

Deno.test("skill install --dry-run reports both user targets and writes nothing", async () => {
  const p = await place();
  try {
    const r = await p.run(["install", "--dry-run", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    strictEqual(r.json.ok, true);
    strictEqual(r.json.dryRun, true);
    strictEqual(r.json.scope, "user");
    strictEqual(r.json.projectRoot, null);
    deepStrictEqual(targets(r), [
      { agent: "claude", scope: "user", path: p.claude, state: "absent", action: "create" },
      { agent: "codex", scope: "user", path: p.codex, state: "absent", action: "create" },
    ]);
    deepStrictEqual((r.json.targets as { written: boolean }[]).map((t) => t.written), [
      false,
      false,
    ]);
    deepStrictEqual(tree(p.home), []);
    const text = await p.run(["install", "--dry-run"]);
    strictEqual(text.stdout.split("\n")[0], `would create  ${p.claude}  [claude, user]`);
    deepStrictEqual(tree(p.home), []);
  } finally {
    p.dispose();
  }
});

Deno.test("skill install writes the file skill show prints, for claude and codex under HOME", async () => {
  const p = await place();
  try {
    const r = await p.run(["install", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    deepStrictEqual(Object.keys(r.json).sort(), [
      "description",
      "dryRun",
      "name",
      "ok",
      "otherCopies",
      "projectRoot",
      "scope",
      "sha256",
      "stderrPolicy",
      "targets",
    ]);
    deepStrictEqual(targets(r).map((t) => t.action), ["create", "create"]);
    deepStrictEqual((r.json.targets as { written: boolean }[]).map((t) => t.written), [true, true]);
    const shown = await p.run(["show"]);
    strictEqual(shown.code, 0);
    strictEqual(Deno.readTextFileSync(p.claude), shown.stdout);
    strictEqual(Deno.readTextFileSync(p.codex), shown.stdout);
    strictEqual((await ownershipOf(shown.stdout)).owner, "lisa");
    deepStrictEqual(tree(p.home), [
      ".agents/",
      ".agents/skills/",
      ".agents/skills/lisa/",
      ".agents/skills/lisa/SKILL.md",
      ".claude/",
      ".claude/skills/",
      ".claude/skills/lisa/",
      ".claude/skills/lisa/SKILL.md",
    ]);
    const mode = (Deno.statSync(p.claude).mode ?? 0) & 0o777;
    strictEqual(mode & 0o600, 0o600, "readable and writable by its owner");
    strictEqual(mode & 0o022, 0, "writable by nobody else");
  } finally {
    p.dispose();
  }
});

Deno.test("--agent picks one agent; installing again over lisa's unchanged file rewrites nothing", async () => {
  const p = await place();
  try {
    const first = await p.run(["install", "--agent", "codex"]);
    strictEqual(first.code, 0, first.stderr);
    strictEqual(first.stdout, `created       ${p.codex}  [codex, user]\n`);
    deepStrictEqual(tree(`${p.home}/.claude`), []);
    const before = Deno.statSync(p.codex);
    const again = await p.run(["install", "--agent", "codex", "--json"]);
    strictEqual(again.code, 0);
    deepStrictEqual(targets(again), [
      { agent: "codex", scope: "user", path: p.codex, state: "current", action: "none" },
    ]);
    strictEqual((again.json.targets as { written: boolean }[])[0].written, false);
    const after = Deno.statSync(p.codex);
    strictEqual(after.ino, before.ino, "the file was not replaced");
    strictEqual(after.mtime?.getTime(), before.mtime?.getTime());
  } finally {
    p.dispose();
  }
});

Deno.test("lisa's file from another lisa (mark intact) is updated without --force", async () => {
  const p = await place();
  try {
    const older = await otherLisasFile();
    strictEqual((await ownershipOf(older)).owner, "lisa", "the fixture is an unedited lisa file");
    write(p.claude, older);
    const r = await p.run(["install", "--agent", "claude", "--json"]);
    strictEqual(r.code, 0, r.stdout);
    deepStrictEqual(targets(r)[0].state + "/" + targets(r)[0].action, "outdated/update");
    strictEqual(Deno.readTextFileSync(p.claude), (await skillFile()).text);
  } finally {
    p.dispose();
  }
});

Deno.test("a SKILL.md lisa did not write is refused: skill_foreign, exit 1, no target written", async () => {
  const p = await place();
  try {
    write(p.codex, "---\nname: lisa\ndescription: my own notes\n---\n\nmine\n");
    for (const args of [["install", "--json"], ["install", "--dry-run", "--json"]]) {
      const r = await p.run(args);
      strictEqual(r.code, 1, args.join(" "));
      strictEqual(r.json.ok, false);
      strictEqual(r.json.errorCode, "skill_foreign");
      ok(String(r.json.error).includes(p.codex), String(r.json.error));
      ok(String(r.json.error).includes("--force"), "says what to do");
      deepStrictEqual(targets(r), [
        { agent: "claude", scope: "user", path: p.claude, state: "absent", action: "create" },
        { agent: "codex", scope: "user", path: p.codex, state: "foreign", action: "refuse" },
      ]);
      // All or none: claude's file, which could have been written, was not.
      deepStrictEqual(tree(`${p.home}/.claude`), []);
      strictEqual(
        Deno.readTextFileSync(p.codex),
        "---\nname: lisa\ndescription: my own notes\n---\n\nmine\n",
      );
    }
    const plain = await p.run(["install"]);
    strictEqual(plain.code, 1);
    strictEqual(plain.stdout, "");
    ok(plain.stderr.startsWith(`lisa: "${p.codex}" was not written by lisa`), plain.stderr);
  } finally {
    p.dispose();
  }
});

Deno.test("lisa's file edited since is modified: refused, then replaced with --force", async () => {
  const p = await place();
  try {
    strictEqual((await p.run(["install"])).code, 0);
    Deno.writeTextFileSync(p.claude, Deno.readTextFileSync(p.claude) + "\nmy addition\n");
    const refused = await p.run(["install", "--json"]);
    strictEqual(refused.json.errorCode, "skill_foreign");
    deepStrictEqual(targets(refused).map((t) => `${t.state}/${t.action}`), [
      "modified/refuse",
      "current/none",
    ]);
    ok(String(refused.json.error).includes("edited since"), String(refused.json.error));
    ok(Deno.readTextFileSync(p.claude).endsWith("my addition\n"), "kept as the person left it");
    const forced = await p.run(["install", "--force", "--json"]);
    strictEqual(forced.code, 0, forced.stdout);
    deepStrictEqual(targets(forced).map((t) => `${t.state}/${t.action}`), [
      "modified/replace",
      "current/none",
    ]);
    strictEqual(Deno.readTextFileSync(p.claude), (await skillFile()).text);
    const text = await p.run(["install", "--force"]);
    strictEqual(text.stdout.split("\n")[0], `unchanged     ${p.claude}  [claude, user]`);
  } finally {
    p.dispose();
  }
});

Deno.test("a symlink at SKILL.md or at the skill folder is never written through; --force replaces the link", async () => {
  const p = await place();
  try {
    // SKILL.md is a link to a file elsewhere; the codex skill folder is a link to another folder.
    Deno.writeTextFileSync(`${p.base}/elsewhere.md`, "not lisa's");
    Deno.mkdirSync(`${p.base}/old-skill`);
    Deno.writeTextFileSync(`${p.base}/old-skill/SKILL.md`, "the older tool's skill");
    Deno.mkdirSync(`${p.home}/.claude/skills/lisa`, { recursive: true });
    Deno.symlinkSync(`${p.base}/elsewhere.md`, p.claude);
    Deno.mkdirSync(`${p.home}/.agents/skills`, { recursive: true });
    Deno.symlinkSync(`${p.base}/old-skill`, `${p.home}/.agents/skills/lisa`);
    const refused = await p.run(["install", "--json"]);
    strictEqual(refused.code, 1);
    strictEqual(refused.json.errorCode, "skill_foreign");
    deepStrictEqual(
      (refused.json.targets as { state: string; linkTarget: string }[]).map((t) => [
        t.state,
        t.linkTarget,
      ]),
      [["symlink", `${p.base}/elsewhere.md`], ["symlink", `${p.base}/old-skill`]],
    );
    ok(String(refused.json.error).includes("never writes through"), String(refused.json.error));
    const forced = await p.run(["install", "--force", "--json"]);
    strictEqual(forced.code, 0, forced.stdout);
    const text = (await skillFile()).text;
    for (const path of [p.claude, p.codex, `${p.home}/.agents/skills/lisa`]) {
      ok(!Deno.lstatSync(path).isSymlink, `${path} is no link any more`);
    }
    strictEqual(Deno.readTextFileSync(p.claude), text);
    strictEqual(Deno.readTextFileSync(p.codex), text);
    // The links' targets are as they were.
    strictEqual(Deno.readTextFileSync(`${p.base}/elsewhere.md`), "not lisa's");
    deepStrictEqual(tree(`${p.base}/old-skill`), ["SKILL.md"]);
    strictEqual(Deno.readTextFileSync(`${p.base}/old-skill/SKILL.md`), "the older tool's skill");
    deepStrictEqual(tree(`${p.home}/.agents/skills`), ["lisa/", "lisa/SKILL.md"]);
  } finally {
    p.dispose();
  }
});

Deno.test("a user folder that is a symlink (dotfiles) is followed; a file where a folder goes is skill_path_invalid", async () => {
  const p = await place();
  try {
    Deno.mkdirSync(`${p.base}/dotfiles/claude`, { recursive: true });
    Deno.symlinkSync(`${p.base}/dotfiles/claude`, `${p.home}/.claude`);
    const r = await p.run(["install", "--agent", "claude", "--json"]);
    strictEqual(r.code, 0, r.stdout);
    ok(Deno.statSync(`${p.base}/dotfiles/claude/skills/lisa/SKILL.md`).isFile);
    Deno.writeTextFileSync(`${p.home}/.agents`, "a file");
    const bad = await p.run(["install", "--agent", "codex", "--json"]);
    strictEqual(bad.code, 1);
    strictEqual(bad.json.errorCode, "skill_path_invalid");
    ok(String(bad.json.error).includes(`"${p.home}/.agents" is not a directory`), bad.stdout);
  } finally {
    p.dispose();
  }
});

Deno.test("--scope project writes under the project root (--project-root, else the current directory)", async () => {
  const p = await place();
  try {
    const r = await p.run(["install", "--scope", "project", "--json"]);
    strictEqual(r.code, 0, r.stdout);
    strictEqual(r.json.projectRoot, p.project);
    deepStrictEqual(targets(r).map((t) => t.path), [
      `${p.project}/.claude/skills/lisa/SKILL.md`,
      `${p.project}/.agents/skills/lisa/SKILL.md`,
    ]);
    deepStrictEqual(tree(p.home), []);
    Deno.mkdirSync(`${p.base}/other`);
    const other = await p.run([
      "install",
      "--scope",
      "project",
      "--project-root",
      `${p.base}/other`,
      "--agent",
      "codex",
      "--json",
    ]);
    strictEqual(other.code, 0, other.stdout);
    deepStrictEqual(tree(`${p.base}/other`), [
      ".agents/",
      ".agents/skills/",
      ".agents/skills/lisa/",
      ".agents/skills/lisa/SKILL.md",
    ]);
    const missing = await p.run([
      "install",
      "--scope",
      "project",
      "--project-root",
      "/nonexistent/x",
      "--json",
    ]);
    strictEqual(missing.json.errorCode, "project_root_not_found");
  } finally {
    p.dispose();
  }
});

Deno.test("in a project, a symlink leading out of the project is skill_path_invalid, one inside is followed", async () => {
  const p = await place();
  try {
    Deno.mkdirSync(`${p.base}/outside`);
    Deno.symlinkSync(`${p.base}/outside`, `${p.project}/.claude`);
    const r = await p.run(["install", "--scope", "project", "--json"]);
    strictEqual(r.code, 1);
    strictEqual(r.json.errorCode, "skill_path_invalid");
    ok(String(r.json.error).includes("outside the project"), String(r.json.error));
    deepStrictEqual(tree(`${p.base}/outside`), []);
    deepStrictEqual(tree(p.project), [`.claude -> ${p.base}/outside`], "codex's was not written");
    Deno.removeSync(`${p.project}/.claude`);
    Deno.mkdirSync(`${p.project}/shared/claude`, { recursive: true });
    Deno.symlinkSync(`${p.project}/shared/claude`, `${p.project}/.claude`);
    const inside = await p.run(["install", "--scope", "project", "--json"]);
    strictEqual(inside.code, 0, inside.stdout);
    ok(Deno.statSync(`${p.project}/shared/claude/skills/lisa/SKILL.md`).isFile);
  } finally {
    p.dispose();
  }
});

Deno.test("a write that fails part-way leaves nothing behind: skill_write_failed", async () => {
  const p = await place();
  try {
    // claude's folder is writable; codex's HOME is /proc/self, where no folder can be made. The
    // claude file, staged first, must not stay (nor its folders).
    const claudeDir = `${p.base}/claude-config`;
    Deno.mkdirSync(claudeDir);
    const r = await p.run(["install", "--json"], {
      HOME: "/proc/self",
      CLAUDE_CONFIG_DIR: claudeDir,
    });
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json.errorCode, "skill_write_failed");
    ok(String(r.json.error).includes("nothing was changed"), String(r.json.error));
    deepStrictEqual(tree(claudeDir), []);
    deepStrictEqual((r.json.targets as { written: boolean }[]).map((t) => t.written), [
      false,
      false,
    ]);
  } finally {
    p.dispose();
  }
});

Deno.test("a lisa skill in codex's other folder (~/.codex/skills) is reported and left alone", async () => {
  const p = await place();
  try {
    const other = `${p.home}/.codex/skills/lisa/SKILL.md`;
    write(other, "---\nname: lisa\ndescription: the older tool\n---\n");
    const r = await p.run(["install", "--agent", "codex", "--json"]);
    strictEqual(r.code, 0, r.stdout);
    deepStrictEqual(r.json.otherCopies, [{ agent: "codex", path: other, state: "foreign" }]);
    ok(r.stderr.includes(`codex also reads ${other}`), r.stderr);
    strictEqual(
      Deno.readTextFileSync(other),
      "---\nname: lisa\ndescription: the older tool\n---\n",
    );
    const none = await p.run(["install", "--agent", "claude", "--json"]);
    deepStrictEqual(none.json.otherCopies, []);
    strictEqual(none.stderr, "");
  } finally {
    p.dispose();
  }
});

Deno.test("bad skill install input is a usage error with its code, and nothing is written", async () => {
  const p = await place();
  try {
    const cases: [string[], string][] = [
      [["install", "--project-root", p.project, "--json"], "conflicting_options"],
      [["install", "--agent", "gemini", "--json"], "invalid_argument"],
      [["install", "--scope", "system", "--json"], "invalid_argument"],
      [["install", "--bogus", "--json"], "unknown_option"],
    ];
    for (const [args, code] of cases) {
      const r = await p.run(args);
      strictEqual(r.code, 1, args.join(" "));
      strictEqual(r.json.errorCode, code, `${args.join(" ")}: ${r.stdout}`);
    }
    const noHome = await p.run(["install", "--json"], { HOME: "" });
    strictEqual(noHome.json.errorCode, "skill_path_invalid");
    ok(String(noHome.json.error).includes("--scope project"), String(noHome.json.error));
    deepStrictEqual(tree(p.base), ["home/", "project/"]);
  } finally {
    p.dispose();
  }
});

Deno.test("skill show --json: name, description, line count, hash and the content install writes", async () => {
  const p = await place();
  try {
    const r = await p.run(["show", "--json"]);
    strictEqual(r.code, 0);
    const { text, sha256 } = await skillFile();
    deepStrictEqual(Object.keys(r.json).sort(), [
      "content",
      "description",
      "descriptionChars",
      "lines",
      "name",
      "sha256",
      "stderrPolicy",
    ]);
    strictEqual(r.json.name, "lisa");
    strictEqual(r.json.content, text);
    strictEqual(r.json.sha256, sha256);
    strictEqual(r.json.lines, text.trimEnd().split("\n").length);
    strictEqual(r.json.descriptionChars, String(r.json.description).length);
    notStrictEqual(r.json.description, "");
  } finally {
    p.dispose();
  }
});
