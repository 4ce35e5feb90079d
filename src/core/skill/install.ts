/**
 * `lisa skill install`: writes lisa's `SKILL.md` where each chosen agent reads skills, all
 * targets or none. Every target is examined first (nothing is written while any is refused);
 * the files are then staged as temp files beside their targets, and only once every one is
 * staged are they renamed into place.
 *
 * What is at a target decides what happens: nothing (create), lisa's own file unchanged (kept,
 * or updated when this lisa's skill differs), or anything lisa did not write: a file without
 * lisa's mark, lisa's file edited since, a symlink at `SKILL.md` or at the skill's folder.
 * Those are refused (`skill_foreign`) unless `force`; forced, a symlink itself is replaced and
 * its target left alone. A symlink is never written through. Above the skill's folder, a user
 * folder may be a symlink (dotfiles); in a project, a symlink must not lead out of the project.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import type { Agent } from "../../base/types.ts";
import { readTextFile } from "../../base/text_file.ts";
import { type StagedFile, stageFileAtomic } from "../../store/atomic.ts";
import { canonicalProjectRoot } from "../session/mod.ts";
import { ownershipOf, SKILL_DESCRIPTION, SKILL_NAME, skillFile } from "./content.ts";
import { type SkillScope, type SkillTarget, skillTarget } from "./targets.ts";

/** What is at a target before the install. */
export type TargetState =
  /** Nothing. */
  | "absent"
  /** lisa's file, the same as this lisa's. */
  | "current"
  /** lisa's file, unedited, from another lisa (another skill text). */
  | "outdated"
  /** lisa's file, edited since lisa wrote it: now the person's. */
  | "modified"
  /** A file without lisa's mark. */
  | "foreign"
  /** A symlink at `SKILL.md` or at the skill's folder. */
  | "symlink";

/** What the install does at a target. */
export type TargetAction = "create" | "update" | "none" | "replace" | "refuse";

/** One target of an install, as reported. */
export interface TargetReport {
  agent: Agent;
  scope: SkillScope;
  path: string;
  state: TargetState;
  action: TargetAction;
  /** True once the file was written by this call (false in a dry run or with `none`). */
  written: boolean;
  /** With `symlink`: where the link points. */
  linkTarget?: string;
}

/** Another `lisa` skill the agent also reads (lisa never writes it). */
export interface OtherCopy {
  agent: Agent;
  path: string;
  state: Exclude<TargetState, "absent">;
}

/** Options of {@link installSkill}. */
export interface InstallOptions {
  agents: readonly Agent[];
  scope: SkillScope;
  /** The project root flag (project scope; default LISA_PROJECT_ROOT, else cwd). */
  projectRoot?: string;
  force: boolean;
  dryRun: boolean;
}

/** What {@link installSkill} did (or, dry, would do). */
export interface InstallReport {
  ok: true;
  dryRun: boolean;
  scope: SkillScope;
  projectRoot: string | null;
  name: string;
  description: string;
  sha256: string;
  targets: TargetReport[];
  otherCopies: OtherCopy[];
}

/** Files larger than this are not read: lisa's skill is a few KiB, so such a file is not it. */
const MAX_READ_BYTES = 1 << 20;

/** A target as examined, with what the write needs to know. */
interface Examined {
  target: SkillTarget;
  report: TargetReport;
  /** The skill folder is a symlink (replaced by a real folder when forced). */
  dirIsLink: boolean;
}

function invalid(path: string, why: string, what: string): LisaError {
  const message = `Cannot install the skill at "${path}": ${why}. ${what}`;
  return new LisaError("skill_path_invalid", message, { details: { path } });
}

function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** True when `path` is `root` or inside it. */
function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root === "/" ? "/" : `${root}/`);
}

/**
 * Checks the folders from the target's base down to its `skills` folder: each that exists must
 * be a directory (a symlink to one is followed; in a project it must not lead out of it).
 */
function checkFolders(t: SkillTarget): void {
  let baseIsDir = false;
  try {
    baseIsDir = Deno.statSync(t.base).isDirectory;
  } catch { /* missing, or a dangling link: not a directory */ }
  if (!baseIsDir) {
    throw invalid(t.path, `"${t.base}" is not an existing directory`, "Create it first");
  }
  const root = t.scope === "project" ? Deno.realPathSync(t.base) : undefined;
  const parts = t.dir.slice(t.base.length + 1).split("/").slice(0, -1);
  let path = t.base;
  for (const part of parts) {
    path = `${path}/${part}`;
    const info = lstatOrNull(path);
    if (info === null) return;
    let isDir = info.isDirectory;
    if (info.isSymlink) {
      let real: string;
      try {
        real = Deno.realPathSync(path);
        isDir = Deno.statSync(real).isDirectory;
      } catch {
        throw invalid(t.path, `"${path}" is a dangling symlink`, "Fix or remove the link");
      }
      if (root !== undefined && !inside(root, real)) {
        throw invalid(
          t.path,
          `"${path}" is a symlink to "${real}", outside the project`,
          "lisa does not follow a project's symlink out of it; install it there yourself, " +
            "or remove the link",
        );
      }
    }
    if (!isDir) {
      throw invalid(t.path, `"${path}" is not a directory`, "Move it away, then install again");
    }
  }
}

/** The action for each state that is lisa's or empty; the others are not lisa's (`force`). */
const ACTIONS: Partial<Record<TargetState, TargetAction>> = {
  absent: "create",
  current: "none",
  outdated: "update",
};

/** What is at `t` now, and what the install does there. */
async function examine(t: SkillTarget, text: string, force: boolean): Promise<Examined> {
  checkFolders(t);
  const report = (state: TargetState, linkTarget?: string): TargetReport => ({
    agent: t.agent,
    scope: t.scope,
    path: t.path,
    state,
    action: ACTIONS[state] ?? (force ? "replace" : "refuse"),
    written: false,
    ...(linkTarget === undefined ? {} : { linkTarget }),
  });
  const dir = lstatOrNull(t.dir);
  if (dir === null) return { target: t, report: report("absent"), dirIsLink: false };
  if (dir.isSymlink) {
    return { target: t, report: report("symlink", Deno.readLinkSync(t.dir)), dirIsLink: true };
  }
  if (!dir.isDirectory) {
    throw invalid(t.path, `"${t.dir}" is a file, not a folder`, "Move it away, then install again");
  }
  const state = await stateOfFile(t.path, text);
  const linkTarget = state === "symlink" ? Deno.readLinkSync(t.path) : undefined;
  return { target: t, report: report(state, linkTarget), dirIsLink: false };
}

/** The state of the `SKILL.md` at `path` against this lisa's `text`. */
async function stateOfFile(path: string, text: string): Promise<TargetState> {
  const info = lstatOrNull(path);
  if (info === null) return "absent";
  if (info.isSymlink) return "symlink";
  if (!info.isFile) {
    throw invalid(path, "it is not a regular file", "Move it away, then install again");
  }
  if (info.size > MAX_READ_BYTES) return "foreign";
  const existing = readTextFile(path);
  const { owner } = await ownershipOf(existing);
  if (owner === "lisa") return existing === text ? "current" : "outdated";
  return owner;
}

/** The sentence for a refused target. */
function refusal(r: TargetReport): string {
  const what = r.state === "modified"
    ? "was written by lisa but edited since"
    : r.state === "symlink"
    ? `is a symlink (to "${r.linkTarget}"), which lisa never writes through`
    : "was not written by lisa (it has no lisa mark)";
  return `"${r.path}" ${what}`;
}

/**
 * Writes every target that needs it, all or none: each file is staged beside its target (missing
 * folders created), then all are renamed into place. On a failure before the renames, the
 * staged files and created folders are removed and nothing changed.
 */
function write(plan: Examined[], text: string): void {
  const staged: { e: Examined; file: StagedFile }[] = [];
  const created: string[] = [];
  try {
    for (const e of plan) {
      if (e.report.action === "none") continue;
      // A forced symlinked folder: stage in its parent; the link is swapped for a folder last.
      const into = e.dirIsLink
        ? e.target.dir.slice(0, e.target.dir.lastIndexOf("/"))
        : e.target.dir;
      makeFolders(e.target.base, into, created);
      staged.push({
        e,
        file: stageFileAtomic(e.target.path, text, { mode: 0o644, tempDir: into }),
      });
    }
  } catch (error) {
    for (const s of staged) s.file.discard();
    for (const dir of created.reverse()) {
      try {
        Deno.removeSync(dir);
      } catch { /* not empty or gone: leave it */ }
    }
    throw writeFailed(plan, error);
  }
  for (const [i, { e, file }] of staged.entries()) {
    try {
      if (e.dirIsLink) swapLinkForFolder(e.target.dir);
      file.commit();
      e.report.written = true;
    } catch (error) {
      for (const rest of staged.slice(i)) rest.file.discard();
      throw writeFailed(plan, error);
    }
  }
}

/** Creates the folders from `base` down to `dir` that are missing; records each it made. */
function makeFolders(base: string, dir: string, created: string[]): void {
  let path = base;
  for (const part of dir.slice(base.length + 1).split("/")) {
    path = `${path}/${part}`;
    try {
      Deno.mkdirSync(path, { mode: 0o755 });
      created.push(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
}

/** Replaces the symlink at `dir` by an empty folder (the link's target is not touched). */
function swapLinkForFolder(dir: string): void {
  const link = Deno.readLinkSync(dir);
  Deno.removeSync(dir);
  try {
    Deno.mkdirSync(dir, { mode: 0o755 });
  } catch (error) {
    Deno.symlinkSync(link, dir);
    throw error;
  }
}

function writeFailed(plan: Examined[], cause: unknown): LisaError {
  const why = cause instanceof Error ? cause.message : String(cause);
  const done = plan.filter((e) => e.report.written).map((e) => e.report.path);
  return new LisaError(
    "skill_write_failed",
    `Could not write the skill: ${why}` +
      (done.length > 0 ? ` (already written: ${done.join(", ")})` : "; nothing was changed"),
    { cause, details: { targets: plan.map((e) => e.report) } },
  );
}

/** Other `lisa` skills the agents also read at this scope (reported, never touched). */
async function otherCopies(targets: SkillTarget[], text: string): Promise<OtherCopy[]> {
  const out: OtherCopy[] = [];
  const ours = new Set(targets.map((t) => t.path));
  for (const t of targets) {
    for (const path of t.alsoRead.filter((p) => !ours.has(p))) {
      let state: TargetState;
      try {
        state = await stateOfFile(path, text);
      } catch {
        continue;
      }
      if (state !== "absent") out.push({ agent: t.agent, path, state });
    }
  }
  return out;
}

/**
 * Installs lisa's skill for `agents` at `scope`. Returns what was done (with `dryRun`, what
 * would be done; nothing is written). Throws `skill_foreign` (a target holds something lisa did
 * not write, and no `force`; nothing written), `skill_path_invalid` (no HOME, a file where a
 * folder goes, a project symlink leading out of the project), `skill_write_failed` (I/O), or
 * `project_root_not_found`.
 */
export async function installSkill(deps: Deps, options: InstallOptions): Promise<InstallReport> {
  const projectRoot = options.scope === "project"
    ? canonicalProjectRoot(options.projectRoot ?? deps.config.projectRoot, deps.cwd)
    : undefined;
  const targets = options.agents.map((a) => skillTarget(a, options.scope, deps.env, projectRoot));
  const { text, sha256 } = await skillFile();
  const plan: Examined[] = [];
  for (const t of targets) plan.push(await examine(t, text, options.force));
  const refused = plan.filter((e) => e.report.action === "refuse").map((e) => e.report);
  if (refused.length > 0) {
    throw new LisaError(
      "skill_foreign",
      `${refused.map(refusal).join("; ")}. Nothing was installed. Pass --force to replace ` +
        `${refused.length > 1 ? "them" : "it"} (move a file away first to keep it)`,
      { details: { targets: plan.map((e) => e.report) } },
    );
  }
  if (!options.dryRun) write(plan, text);
  return {
    ok: true,
    dryRun: options.dryRun,
    scope: options.scope,
    projectRoot: projectRoot ?? null,
    name: SKILL_NAME,
    description: SKILL_DESCRIPTION,
    sha256,
    targets: plan.map((e) => e.report),
    otherCopies: await otherCopies(targets, text),
  };
}
