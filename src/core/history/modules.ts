/**
 * The history store, its ingestion and its sweeps, loaded on first use: they bring `node:sqlite`
 * and the schema, and every remover of a session's files (spawn, kill, cleanup, prune) imports
 * history's face, so they load only once something is read or recorded (`recorder.ts`,
 * `query.ts`).
 */
import { lazyImport } from "../../base/lazy.ts";

/** The three modules, by role. */
export type HistoryModules = {
  store: typeof import("./store.ts");
  ingest: typeof import("./ingest.ts");
  sweep: typeof import("./sweep.ts");
};

/** Loads the store, ingestion and sweep modules. */
export async function loadHistoryModules(): Promise<HistoryModules> {
  const [store, ingest, sweep] = await Promise.all([
    lazyImport<HistoryModules["store"]>(new URL("./store.ts", import.meta.url)),
    lazyImport<HistoryModules["ingest"]>(new URL("./ingest.ts", import.meta.url)),
    lazyImport<HistoryModules["sweep"]>(new URL("./sweep.ts", import.meta.url)),
  ]);
  return { store, ingest, sweep };
}
