/** The suite's file order (scripts/test_order.ts): the slow files spread out, none forgotten. */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { spreadOrder } from "../../../scripts/test_order.ts";

Deno.test("the heavy files are spread among the other slow ones, built_test first, quick tiers last", () => {
  const files = [
    "tests/cli/a_test.ts",
    "tests/compat/c_test.ts",
    ...Array.from({ length: 9 }, (_, i) => `tests/integration/m${i}_test.ts`),
    "tests/integration/built_test.ts",
    "tests/integration/worktree_a_test.ts",
    "tests/integration/worktree_b_test.ts",
    "tests/unit/u_test.ts",
  ];
  const order = spreadOrder(files);
  deepStrictEqual([...order].sort(), [...files].sort(), "every file once");
  strictEqual(order[0], "tests/integration/built_test.ts");
  const heavy = order.flatMap((f, i) => /built_test|worktree_/.test(f) ? [i] : []);
  // Three heavy files among ten others: four files apart.
  deepStrictEqual(heavy, [0, 5, 10]);
  deepStrictEqual(order.slice(-2), ["tests/cli/a_test.ts", "tests/unit/u_test.ts"]);
  ok(order.indexOf("tests/compat/c_test.ts") < order.indexOf("tests/cli/a_test.ts"));
  deepStrictEqual(spreadOrder(["tests/unit/x_test.ts"]), ["tests/unit/x_test.ts"]);
});

Deno.test("the other slow files go longest first when weighed, in their given order otherwise", () => {
  const files = [
    "tests/integration/a_test.ts",
    "tests/integration/b_test.ts",
    "tests/unit/u_test.ts",
  ];
  deepStrictEqual(spreadOrder(files), files);
  const sizes: Record<string, number> = {
    "tests/integration/a_test.ts": 10,
    "tests/integration/b_test.ts": 90,
  };
  deepStrictEqual(spreadOrder(files, (f) => sizes[f] ?? 0), [
    "tests/integration/b_test.ts",
    "tests/integration/a_test.ts",
    "tests/unit/u_test.ts",
  ]);
});
