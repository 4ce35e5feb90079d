/** A remote lisa's documents handed on with `host`: on the document and on every row it lists. */
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { tagJsonLine, withHost } from "../../../../src/core/hosts/mod.ts";

Deno.test("list's items, tree's nodes (to any depth) and flat rows get host; names stay as they are", () => {
  deepStrictEqual(
    withHost({ sessions: ["lisa-a"], items: [{ session: "lisa-a", host: "x" }], count: 1 }, "b1"),
    { host: "b1", sessions: ["lisa-a"], items: [{ host: "b1", session: "lisa-a" }], count: 1 },
  );
  const tree = withHost({
    roots: [{
      session: "p",
      children: [{ session: "c", children: [{ session: "g", children: [] }] }],
    }],
  }, "b1");
  deepStrictEqual(tree, {
    host: "b1",
    roots: [{
      host: "b1",
      session: "p",
      children: [{
        host: "b1",
        session: "c",
        children: [{ host: "b1", session: "g", children: [] }],
      }],
    }],
  });
  deepStrictEqual(withHost({ rows: [{ session: "p", depth: 0 }] }, null), {
    host: null,
    rows: [{ host: null, session: "p", depth: 0 }],
  });
});

Deno.test("each JSON line of a stream gets host first; a line that is not an object stays as it is", () => {
  strictEqual(
    tagJsonLine('{"type":"changed","session":"s"}', "b1"),
    '{"host":"b1","type":"changed","session":"s"}',
  );
  strictEqual(tagJsonLine("not json", "b1"), "not json");
  strictEqual(tagJsonLine("[1]", "b1"), "[1]");
});
