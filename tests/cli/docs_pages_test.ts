/**
 * The documentation holds together: the README stays a short front page (at most 300 lines, the
 * two commands for a fresh machine as CI runs them), every page says first what it is for and
 * whom, every relative link and `#anchor` in README.md and docs/*.md leads somewhere, no long
 * paragraph is written twice (one place per fact, nothing to drift), and every command line of
 * the README's tours goes through the real command table.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { routeOf } from "../../src/cli/route_map.ts";
import { parse, words } from "../helpers/command_lines.ts";
import { REPO_ROOT } from "../helpers/world.ts";

/** README.md and every page of docs/, by their path from the repository root. */
function pages(): Map<string, string> {
  const out = new Map<string, string>();
  out.set("README.md", Deno.readTextFileSync(`${REPO_ROOT}/README.md`));
  for (const e of Deno.readDirSync(`${REPO_ROOT}/docs`)) {
    if (e.isFile && e.name.endsWith(".md")) {
      out.set(`docs/${e.name}`, Deno.readTextFileSync(`${REPO_ROOT}/docs/${e.name}`));
    }
  }
  return out;
}

const PAGES = pages();
const README = PAGES.get("README.md")!;

/** The text without its fenced code blocks (their lines stay, emptied, so lines still count). */
function withoutCode(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ""));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a `-`. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-");
}

/** The anchors a page's headings give, numbered as GitHub numbers repeated ones. */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of withoutCode(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** A page's links outside code: `[text](target)`, inline code spans removed first. */
function links(text: string): string[] {
  const prose = withoutCode(text).replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

/** Where a link from `page` goes wrong, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z]+:/.test(target)) return undefined; // https:, mailto: leave the repository
  const [path, anchor] = target.split("#", 2);
  const dir = page.includes("/") ? page.slice(0, page.lastIndexOf("/") + 1) : "";
  const resolved = path === "" ? page : new URL(path, `file:///${dir}`).pathname.slice(1);
  let text = PAGES.get(resolved);
  if (text === undefined) {
    try {
      text = Deno.readTextFileSync(`${REPO_ROOT}/${resolved}`);
    } catch {
      return `${page}: ${target}: no file ${resolved}`;
    }
  }
  if (anchor !== undefined && !anchors(text).has(anchor)) {
    return `${page}: ${target}: ${resolved} has no heading #${anchor}`;
  }
  return undefined;
}

Deno.test("every relative link and #anchor in README.md and docs/*.md resolves", () => {
  let count = 0;
  const broken: string[] = [];
  for (const [page, text] of PAGES) {
    for (const target of links(text)) {
      count++;
      const why = brokenLink(page, target);
      if (why !== undefined) broken.push(why);
    }
  }
  ok(count >= 50, `${count} links found`);
  deepStrictEqual(broken, []);
});

Deno.test("the link checker finds a missing file, a missing anchor, and GitHub's anchors", () => {
  strictEqual(anchorOf("Wait for a turn: `send --wait`"), "wait-for-a-turn-send---wait");
  strictEqual(anchorOf("### `lisa session send`".slice(4)), "lisa-session-send");
  strictEqual(brokenLink("README.md", "docs/guide.md#send-input"), undefined);
  strictEqual(brokenLink("docs/guide.md", "../README.md"), undefined);
  ok(brokenLink("README.md", "docs/nosuch.md")?.includes("no file docs/nosuch.md"));
  ok(brokenLink("docs/guide.md", "#no-such-heading")?.includes("no heading #no-such-heading"));
});

Deno.test("the README is at most 300 lines and keeps the two commands for a fresh machine", () => {
  const lines = README.trimEnd().split("\n").length;
  ok(lines <= 300, `${lines} lines`);
  // CI and the brief run exactly these two lines.
  ok(README.includes("\nnpx -y deno@2.9.6 task smoke "), "the smoke command");
  ok(README.includes("\nnpx -y deno@2.9.6 task test "), "the test command");
});

Deno.test("every page starts by saying what it is for and whom", () => {
  for (const [page, text] of PAGES) {
    ok(text.startsWith("# "), `${page} starts with its title`);
    // The first two paragraphs after the title, prose markers left out.
    const opening = text.replace(/<!--[^>]*-->/g, "").split("\n").slice(1).join("\n").trim()
      .split(/\n\s*\n/).slice(0, 2).join(" ");
    ok(!opening.startsWith("#") && !opening.startsWith("|"), `${page}: no opening paragraph`);
    ok(/\bfor\b/i.test(opening), `${page}: the opening does not say whom it is for`);
  }
});

/** The paragraphs of prose of a page (no code, tables, lists or headings), whitespace folded. */
function paragraphs(text: string): string[] {
  return withoutCode(text).replace(/<!--[^>]*-->/g, "").split(/\n\s*\n/)
    .map((p) => p.trim().replace(/\s+/g, " "))
    .filter((p) => p !== "" && !/^[#|\-*\d]/.test(p));
}

Deno.test("no paragraph of 200 characters or more is written on two pages, or twice", () => {
  const where = new Map<string, string>();
  const copies: string[] = [];
  for (const [page, text] of PAGES) {
    for (const p of paragraphs(text)) {
      if (p.length < 200) continue;
      const first = where.get(p);
      if (first !== undefined) copies.push(`${first} and ${page}: ${p.slice(0, 80)}…`);
      else where.set(p, page);
    }
  }
  ok(where.size >= 50, `${where.size} paragraphs read`);
  deepStrictEqual(copies, []);
});

/** The command lines of the README's five-minute tours (their ```sh blocks). */
function tourLines(): string[] {
  const out: string[] = [];
  for (const part of README.split(/^## /m).filter((p) => p.startsWith("Five-minute tour"))) {
    for (const m of part.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
      out.push(...m[1].split("\n").map((l) => l.trim()).filter((l) => l !== ""));
    }
  }
  return out;
}

/** Values for the shell variables the tours use. */
const VARS: Record<string, string> = { S: "lisa-w-1", NEXT: "o2.1" };

Deno.test("every command line of the README's tours goes through the command table", async () => {
  const lines = tourLines();
  ok(lines.length >= 12, `${lines.length} tour lines found`);
  const spans = [...withoutCode(README).matchAll(/`(lisa [^`]+)`/g)].map((m) => m[1]);
  for (const line of [...lines, ...spans]) {
    ok(line.startsWith("lisa "), `a tour line that is not lisa's: ${line}`);
    const argv = words(line, VARS).slice(1);
    const route = routeOf(argv);
    ok(route !== undefined, `no verb of the table: ${line}`);
    const r = await parse(argv);
    strictEqual(r.code, 0, `${line}\n${r.out}`);
    strictEqual(r.route, route, line);
  }
});
