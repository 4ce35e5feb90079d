/** Warnings: one form, written in one place (`warn` of `src/base/io.ts`). */
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { warn } from "../../../src/base/io.ts";

Deno.test("warn writes one `lisa: warning:` line on stderr", () => {
  const err: string[] = [];
  warn({ err: (text) => err.push(text) }, "could not record the input time: busy");
  deepStrictEqual(err, ["lisa: warning: could not record the input time: busy\n"]);
});

Deno.test("no source file but src/base/io.ts spells a warning out by hand", () => {
  const src = new URL("../../../src/", import.meta.url).pathname;
  const spelled: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) walk(`${path}/`);
      else if (path.endsWith(".ts") && Deno.readTextFileSync(path).includes("lisa: warning:")) {
        spelled.push(path.slice(src.length));
      }
    }
  };
  walk(src);
  strictEqual(spelled.join(", "), "base/io.ts");
});
