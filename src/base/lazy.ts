/**
 * Imports a module when it is first needed, without making it part of the module graph Deno
 * loads at start-up. Deno reads every statically analysable import, `import("./x.ts")`
 * included, before the first line runs (measured: an unexecuted `import()` of a 20-module
 * graph costs ~6 ms of start-up); an import from a computed URL is only loaded when it runs.
 * Callers name the module's type with a type-only `typeof import("./x.ts")`, which adds nothing
 * at run time. `deno task compile` embeds these modules with `--include`.
 */

/** Imports `url` (a module URL, usually `new URL("./x.ts", import.meta.url)`) at run time. */
export function lazyImport<M>(url: URL): Promise<M> {
  return import(url.href) as Promise<M>;
}
