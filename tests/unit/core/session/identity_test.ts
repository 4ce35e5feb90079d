import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  artifactId,
  canonicalProjectRoot,
  isValidSessionName,
  newRunId,
  projectHash,
  projectSlug,
  sanitizeTag,
  sessionName,
  validateSessionName,
} from "../../../../src/core/session/identity.ts";
import { parseAgent, parseMode } from "../../../../src/base/types.ts";

const NAME_RE =
  /^lisa-([a-z0-9]{1,10})-(\d{6})-(\d{6})-(\d{9})-(claude|codex)-(interactive|exec)(?:-([a-z0-9]{1,16}))?$/;

Deno.test("projectHash is the first 8 hex chars of md5(root)", () => {
  for (const root of ["/tmp/project", "/home/u/My Project", "/", "/srv/ünï"]) {
    strictEqual(projectHash(root), createHash("md5").update(root).digest("hex").slice(0, 8));
  }
  ok(/^[0-9a-f]{8}$/.test(projectHash("/x")));
});

Deno.test("projectSlug keeps up to 10 lowercased alphanumerics of odd basenames", () => {
  const cases: [string, string][] = [
    ["/home/u/lisa", "lisa"],
    ["/home/u/My Project!!", "myproject"],
    ["/home/u/a-very-long-project-name", "averylongp"],
    ["/home/u/Ünïcödé-App 2", "ncdapp2"],
    ["/home/u/___", "project"],
    ["/home/u/🚀🚀", "project"],
    ["/", "project"],
    ["/home/u/repo/", "repo"],
    ["/home/u/.dotfiles", "dotfiles"],
    ["/home/u/123", "123"],
  ];
  for (const [root, slug] of cases) strictEqual(projectSlug(root), slug, root);
});

Deno.test("canonicalProjectRoot makes roots absolute and resolves symlinks", async () => {
  const base = Deno.realPathSync(await Deno.makeTempDir({ prefix: "lisa-identity-test-" }));
  try {
    const real = `${base}/Real Project`;
    Deno.mkdirSync(`${real}/sub`, { recursive: true });
    Deno.symlinkSync(real, `${base}/link`);
    strictEqual(canonicalProjectRoot(`${base}/link`, "/"), real);
    strictEqual(canonicalProjectRoot("link", base), real, "relative to cwd");
    strictEqual(canonicalProjectRoot(undefined, `${real}/sub/..`), real, "defaults to cwd");
    strictEqual(canonicalProjectRoot("", real), real);
    strictEqual(canonicalProjectRoot(`${real}/sub/../`, "/"), real);
    // The symlinked root and the real one are the same project.
    strictEqual(projectHash(canonicalProjectRoot(`${base}/link`, "/")), projectHash(real));
    strictEqual(projectSlug(canonicalProjectRoot(`${base}/link`, "/")), "realprojec");
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("canonicalProjectRoot refuses a missing root or a file", async () => {
  const base = await Deno.makeTempDir({ prefix: "lisa-identity-test-" });
  try {
    throws(() => canonicalProjectRoot(`${base}/missing`, "/"), { code: "project_root_not_found" });
    Deno.writeTextFileSync(`${base}/file`, "");
    throws(() => canonicalProjectRoot(`${base}/file`, "/"), { code: "project_root_not_found" });
    Deno.symlinkSync(`${base}/nowhere`, `${base}/dangling`);
    throws(() => canonicalProjectRoot(`${base}/dangling`, "/"), { code: "project_root_not_found" });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("sessionName has the form lisa-{slug}-{YYMMDD-HHMMSS}-{nanos}-{agent}-{mode}[-{tag}]", () => {
  const now = new Date(2026, 2, 4, 5, 6, 7, 890);
  strictEqual(
    sessionName({
      projectRoot: "/w/My App",
      agent: "codex",
      mode: "exec",
      tag: "My Tag!!",
      now,
      nanos: 42,
    }),
    "lisa-myapp-260304-050607-000000042-codex-exec-mytag",
  );
  strictEqual(
    sessionName({ projectRoot: "/w/x", agent: "claude", mode: "interactive", now, nanos: 1 }),
    "lisa-x-260304-050607-000000001-claude-interactive",
  );
  const tagless = sessionName({
    projectRoot: "/w/x",
    agent: "claude",
    mode: "exec",
    tag: "!!",
    now,
  });
  ok(tagless.endsWith("-claude-exec"), "a tag with nothing left is omitted");
  for (let i = 0; i < 20; i++) {
    const name = sessionName({ projectRoot: "/", agent: "codex", mode: "exec", tag: "t", now });
    const m = NAME_RE.exec(name);
    ok(m, name);
    strictEqual(m[1], "project");
    ok(Number(m[4]) >= 890_000_000 && Number(m[4]) < 891_000_000, "nanos carry the millis");
    ok(isValidSessionName(name));
  }
});

Deno.test("sanitizeTag keeps up to 16 lowercased alphanumerics", () => {
  strictEqual(sanitizeTag("My Tag!!"), "mytag");
  strictEqual(sanitizeTag("a-b_c.d e"), "abcde");
  strictEqual(sanitizeTag("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), "abcdefghijklmnop");
  strictEqual(sanitizeTag("$(rm -rf ~)"), "rmrf");
  strictEqual(sanitizeTag(""), "");
});

Deno.test("custom session names must start with lisa- and use [A-Za-z0-9_-]", () => {
  for (const ok_ of ["lisa-a", "lisa-My_Session_1-x", `lisa-${"a".repeat(195)}`]) {
    strictEqual(validateSessionName(ok_), ok_);
    strictEqual(artifactId(ok_), ok_);
  }
  const bad: [string, RegExp][] = [
    ["work-1", /must start with "lisa-"/],
    ["Lisa-x", /must start with "lisa-"/],
    ["lisa-", /may contain only/],
    ["lisa-a b", /may contain only/],
    ["lisa-a/../b", /may contain only/],
    ["lisa-$(x)", /may contain only/],
    ["lisa-a;b", /may contain only/],
    ["lisa-a.b", /may not contain "\." \(tmux would rename it to "lisa-a_b"\)/],
    ["lisa-a:b", /may contain only/],
    ["lisa-ü", /may contain only/],
    [`lisa-${"a".repeat(196)}`, /max 200/],
  ];
  for (const [name, why] of bad) {
    throws(() => validateSessionName(name), (e: unknown) => {
      ok(e instanceof Error && why.test(e.message), `${name}: ${e}`);
      strictEqual((e as { code?: string }).code, "invalid_session_name");
      strictEqual((e as { exitCode?: number }).exitCode, 1);
      return true;
    });
    strictEqual(isValidSessionName(name), false, name);
  }
});

Deno.test("parseAgent and parseMode accept known values in any case and reject others", () => {
  strictEqual(parseAgent("Claude"), "claude");
  strictEqual(parseAgent(" codex "), "codex");
  strictEqual(parseMode("EXEC"), "exec");
  strictEqual(parseMode("interactive"), "interactive");
  throws(() => parseAgent("gpt"), { code: "invalid_agent" });
  throws(() => parseMode("batch"), { code: "invalid_mode" });
});

Deno.test("newRunId is unique, file-name safe and has no colon", () => {
  const now = new Date();
  const ids = new Set(Array.from({ length: 200 }, () => newRunId(now)));
  strictEqual(ids.size, 200);
  for (const id of ids) ok(/^[a-z0-9]+-[0-9a-f]{12}$/.test(id), id);
  deepStrictEqual([...ids].filter((id) => id.includes(":")), []);
});
