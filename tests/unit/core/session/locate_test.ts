import { deepStrictEqual } from "node:assert/strict";
import { scanMetaFiles } from "../../../../src/core/session/locate.ts";

Deno.test("scanMetaFiles lists each session's meta file, nothing else of the runtime dir", () => {
  const dir = Deno.makeTempDirSync();
  try {
    for (
      const f of [
        ".lisa-aaaaaaaa-session-lisa-x-meta.json",
        ".lisa-aaaaaaaa-session-lisa-x-state.json",
        ".lisa-aaaaaaaa-session-lisa-x-meta.json.lock",
        ".lisa-aaaaaaaa-session-lisa-x-hooks.jsonl",
        ".lisa-bbbbbbbb-session-lisa-y.z-meta.json",
        ".lisa-AAAAAAAA-session-lisa-x-meta.json",
        ".lisa-aaaaaaaa-session-other-meta.json",
        "lisa-aaaaaaaa-output-lisa-x-meta.json",
        "notes-meta.json",
      ]
    ) Deno.writeTextFileSync(`${dir}/${f}`, "{}");
    const found = scanMetaFiles(dir).map((f) => [f.hash, f.session, f.path]).sort();
    deepStrictEqual(found, [
      ["aaaaaaaa", "lisa-x", `${dir}/.lisa-aaaaaaaa-session-lisa-x-meta.json`],
      ["bbbbbbbb", "lisa-y.z", `${dir}/.lisa-bbbbbbbb-session-lisa-y.z-meta.json`],
    ]);
    deepStrictEqual(scanMetaFiles(`${dir}/missing`), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
