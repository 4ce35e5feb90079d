import { strictEqual as assertEquals } from "node:assert/strict";
import { createHash } from "node:crypto";
import { md5Hex } from "../../../src/base/md5.ts";

Deno.test("md5Hex matches node:crypto for ASCII, UTF-8 and block-boundary inputs", () => {
  const inputs = ["", "a", "abc", "/tmp/project", "ünïcødé 🚀", "x".repeat(55), "y".repeat(56)];
  for (const n of [63, 64, 65, 119, 120, 1000]) inputs.push("z".repeat(n));
  for (const input of inputs) {
    assertEquals(md5Hex(input), createHash("md5").update(input).digest("hex"), `input ${input}`);
  }
});
