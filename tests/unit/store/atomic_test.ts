import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  readJsonIfExists,
  readTextIfExists,
  removeIfExists,
  stageFileAtomic,
  writeFileAtomic,
  writeJsonAtomic,
} from "../../../src/store/atomic.ts";

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "lisa-atomic-test-" });
}

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("writeFileAtomic creates a 0600 file and leaves no temp file behind", async () => {
  const dir = await tempDir();
  try {
    writeFileAtomic(`${dir}/a.txt`, "hello");
    writeFileAtomic(`${dir}/b.bin`, new Uint8Array([1, 2, 3]));
    strictEqual(Deno.readTextFileSync(`${dir}/a.txt`), "hello");
    deepStrictEqual([...Deno.readFileSync(`${dir}/b.bin`)], [1, 2, 3]);
    strictEqual((Deno.statSync(`${dir}/a.txt`).mode ?? 0) & 0o777, 0o600);
    deepStrictEqual(names(dir), ["a.txt", "b.bin"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic replaces the whole file through a rename (new inode)", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/state.json`;
    writeFileAtomic(path, "x".repeat(10_000));
    const before = Deno.statSync(path).ino;
    // A reader holding the old file keeps seeing complete old content.
    const reader = Deno.openSync(path, { read: true });
    try {
      writeFileAtomic(path, "short");
      strictEqual(Deno.readTextFileSync(path), "short");
      ok(Deno.statSync(path).ino !== before);
      const buf = new Uint8Array(20_000);
      strictEqual(reader.readSync(buf), 10_000);
    } finally {
      reader.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic replaces a symlink instead of writing through it", async () => {
  const dir = await tempDir();
  try {
    Deno.writeTextFileSync(`${dir}/victim`, "keep");
    Deno.symlinkSync(`${dir}/victim`, `${dir}/meta.json`);
    writeJsonAtomic(`${dir}/meta.json`, { a: 1 });
    strictEqual(Deno.readTextFileSync(`${dir}/victim`), "keep");
    ok(Deno.lstatSync(`${dir}/meta.json`).isFile);
    deepStrictEqual(readJsonIfExists(`${dir}/meta.json`), { a: 1 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic removes its temp file when the write fails", async () => {
  const dir = await tempDir();
  try {
    Deno.mkdirSync(`${dir}/target`);
    Deno.writeTextFileSync(`${dir}/target/inside`, "");
    // Renaming a file over a non-empty directory fails after the temp file was written.
    throws(() => writeFileAtomic(`${dir}/target`, "data"));
    deepStrictEqual(names(dir), ["target"]);
    throws(() => writeFileAtomic(`${dir}/missing-dir/x`, "data"), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeJsonAtomic writes pretty JSON with a trailing newline", async () => {
  const dir = await tempDir();
  try {
    writeJsonAtomic(`${dir}/x.json`, { a: [1], b: "ü" });
    strictEqual(
      Deno.readTextFileSync(`${dir}/x.json`),
      '{\n  "a": [\n    1\n  ],\n  "b": "ü"\n}\n',
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readers return undefined for missing files and refuse symlinks", async () => {
  const dir = await tempDir();
  try {
    strictEqual(readTextIfExists(`${dir}/none`), undefined);
    strictEqual(readJsonIfExists(`${dir}/none.json`), undefined);
    Deno.writeTextFileSync(`${dir}/bad.json`, "{");
    throws(() => readJsonIfExists(`${dir}/bad.json`), SyntaxError);
    Deno.writeTextFileSync(`${dir}/secret`, "s");
    Deno.symlinkSync(`${dir}/secret`, `${dir}/link`);
    throws(() => readTextIfExists(`${dir}/link`), /symlink/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("removeIfExists reports whether something was removed", async () => {
  const dir = await tempDir();
  try {
    Deno.writeTextFileSync(`${dir}/f`, "");
    strictEqual(removeIfExists(`${dir}/f`), true);
    strictEqual(removeIfExists(`${dir}/f`), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("stageFileAtomic changes nothing until commit; discard leaves the target as it was", async () => {
  const dir = await tempDir();
  try {
    Deno.writeTextFileSync(`${dir}/t.md`, "old");
    Deno.mkdirSync(`${dir}/stage`);
    const kept = stageFileAtomic(`${dir}/t.md`, "new", { mode: 0o644 });
    strictEqual(Deno.readTextFileSync(`${dir}/t.md`), "old");
    ok(kept.temp.startsWith(`${dir}/t.md.tmp-`), kept.temp);
    kept.discard();
    deepStrictEqual(names(dir), ["stage", "t.md"]);
    // Staged elsewhere (the same filesystem), then renamed over a symlink: the link is replaced.
    Deno.writeTextFileSync(`${dir}/target`, "the link's target");
    Deno.removeSync(`${dir}/t.md`);
    Deno.symlinkSync(`${dir}/target`, `${dir}/t.md`);
    const staged = stageFileAtomic(`${dir}/t.md`, "new", { mode: 0o644, tempDir: `${dir}/stage` });
    ok(staged.temp.startsWith(`${dir}/stage/t.md.tmp-`), staged.temp);
    staged.commit();
    ok(!Deno.lstatSync(`${dir}/t.md`).isSymlink);
    strictEqual(Deno.readTextFileSync(`${dir}/t.md`), "new");
    strictEqual(Deno.readTextFileSync(`${dir}/target`), "the link's target");
    strictEqual((Deno.statSync(`${dir}/t.md`).mode ?? 0) & 0o777, 0o644 & ~umask());
    deepStrictEqual(names(`${dir}/stage`), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The process's umask (read without changing it for long). */
function umask(): number {
  const mask = Deno.umask(0o022);
  Deno.umask(mask);
  return mask;
}
