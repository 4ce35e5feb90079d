/**
 * The machinery of lisa's generated documentation: blocks a generator redoes between markers in
 * a hand-written page (`withBlocks`: the domain ranking of `docs/development.md`), and the
 * hand-written blocks a generated page keeps (`KeptProse`: `docs/reference.md`, see
 * `reference.ts`). `deno task docs` (scripts/docs.ts) runs them; tests fail when a page differs.
 */

/**
 * `text` with the block of each of `generators` between `<!-- name:start -->` and
 * `<!-- name:end -->` redone. Throws when `text` (the file `what` names) lacks one.
 */
export function withBlocks(
  text: string,
  generators: Readonly<Record<string, () => string>>,
  what: string,
): string {
  let out = text;
  for (const [name, render] of Object.entries(generators)) {
    const start = `<!-- ${name}:start -->\n`;
    const end = `<!-- ${name}:end -->`;
    const a = out.indexOf(start);
    const b = out.indexOf(end, a);
    if (a < 0 || b < 0) throw new Error(`${what} has no ${name} block`);
    // Blank lines around the block: what `deno fmt` keeps next to an HTML comment.
    out = out.slice(0, a + start.length) + "\n" + render() + "\n" + out.slice(b);
  }
  return out;
}

const PROSE = /<!-- prose:([a-z0-9-]+):start -->\n([\s\S]*?)<!-- prose:\1:end -->/g;

/**
 * The hand-written blocks of a generated page (`<!-- prose:ID:start -->` … `<!-- prose:ID:end
 * -->`), read from the page as it is, handed back where the generator places them. It records
 * which were placed, so a block the page no longer has a place for is reported, never dropped.
 */
export class KeptProse {
  readonly #blocks = new Map<string, string>();
  readonly #placed = new Set<string>();

  /** Reads the blocks of `text` (the page `what` names); throws on an id used twice. */
  constructor(text: string, readonly what: string) {
    for (const m of text.matchAll(PROSE)) {
      if (this.#blocks.has(m[1])) throw new Error(`${what}: two prose blocks named ${m[1]}`);
      this.#blocks.set(m[1], m[2].trim());
    }
  }

  /**
   * The lines of block `id` with its markers, a blank line before; none when the page has no such
   * block, unless `always` (a place every page has: its markers are written, empty).
   */
  block(id: string, always = false): string[] {
    this.#placed.add(id);
    const body = this.#blocks.get(id);
    if (body === undefined && !always) return [];
    const inner = body ? ["", body, ""] : [""];
    return ["", `<!-- prose:${id}:start -->`, ...inner, `<!-- prose:${id}:end -->`];
  }

  /** Throws when a block of the page was given no place (its text would be lost). */
  checkAllPlaced(): void {
    const orphans = [...this.#blocks.keys()].filter((id) => !this.#placed.has(id));
    if (orphans.length > 0) {
      throw new Error(`${this.what}: no place for the prose block(s) ${orphans.join(", ")}`);
    }
  }
}
