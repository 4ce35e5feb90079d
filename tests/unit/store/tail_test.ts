import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { completeLines, readTailOf } from "../../../src/store/tail.ts";

async function inTempDir(body: (dir: string) => void): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "lisa-tail-test-" });
  try {
    body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("readTailOf reads a file that fits in the window whole, an unfinished line dropped", () =>
  inTempDir((dir) => {
    Deno.writeTextFileSync(`${dir}/a.jsonl`, "one\ntwo\nthr");
    const tail = readTailOf(`${dir}/a.jsonl`, 1024);
    strictEqual(tail.start, 0);
    strictEqual(tail.newlines, 2);
    deepStrictEqual(completeLines(tail), ["one", "two"]);
  }));

Deno.test("readTailOf reads only the window of a longer file, its first partial line dropped", () =>
  inTempDir((dir) => {
    Deno.writeTextFileSync(`${dir}/a.jsonl`, "first line\nsecond\nthird\n");
    const tail = readTailOf(`${dir}/a.jsonl`, 10);
    strictEqual(tail.start, 14);
    deepStrictEqual(completeLines(tail), ["third"]);
  }));

Deno.test("readTailOf follows a symlink and throws NotFound for a missing file", () =>
  inTempDir((dir) => {
    Deno.writeTextFileSync(`${dir}/a.jsonl`, "x\ny\n");
    Deno.symlinkSync(`${dir}/a.jsonl`, `${dir}/link.jsonl`);
    deepStrictEqual(completeLines(readTailOf(`${dir}/link.jsonl`, 1024)), ["x", "y"]);
    deepStrictEqual(completeLines(readTailOf(`${dir}/link.jsonl`, 3)), ["y"]);
    throws(() => readTailOf(`${dir}/missing.jsonl`, 1024), Deno.errors.NotFound);
  }));
