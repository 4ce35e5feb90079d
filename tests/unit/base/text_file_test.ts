import { strictEqual, throws } from "node:assert/strict";
import { readTextFile } from "../../../src/base/text_file.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const CASES: [string, Uint8Array][] = [
  ["empty", new Uint8Array()],
  ["text", enc('{"a":1}\n')],
  ["a byte order mark", Uint8Array.of(0xef, 0xbb, 0xbf, ...enc('{"a":1}'))],
  ["two byte order marks", Uint8Array.of(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x78)],
  ["a mark only", Uint8Array.of(0xef, 0xbb, 0xbf)],
  ["NULs", enc("sleep\u00002\u0000")],
  // Truncated, overlong, surrogate, out-of-range and stray continuation bytes.
  [
    "invalid bytes",
    Uint8Array.of(0xe2, 0x82, 0x7c, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80),
  ],
  ["invalid at the end", Uint8Array.of(0x6f, 0x6b, 0xf0, 0x9f, 0x98)],
  ["a euro and stray bytes", Uint8Array.of(0x80, 0xe2, 0x82, 0xac, 0xff, 0xfe)],
];

Deno.test("readTextFile reads as TextDecoder decodes: replacement characters, one BOM dropped", () => {
  const dir = Deno.makeTempDirSync();
  try {
    for (const [name, bytes] of CASES) {
      const path = `${dir}/f`;
      Deno.writeFileSync(path, bytes);
      strictEqual(readTextFile(path), new TextDecoder().decode(bytes), name);
    }
    throws(() => readTextFile(`${dir}/missing`), Deno.errors.NotFound);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "readTextFile reads /proc files whole (their size reads as 0)",
  ignore: Deno.build.os !== "linux",
  fn: () => {
    const path = `/proc/${Deno.pid}/cmdline`;
    strictEqual(readTextFile(path), new TextDecoder().decode(Deno.readFileSync(path)));
    strictEqual(readTextFile(path).split("\0")[1], "test");
  },
});
