import { strictEqual } from "node:assert/strict";
import { isShellName, shellJoin, shellQuote } from "../../../src/base/shell_quote.ts";

Deno.test("plain words stay unquoted for readability", () => {
  strictEqual(shellQuote("claude"), "claude");
  strictEqual(shellQuote("--model=o3"), "--model=o3");
  strictEqual(shellQuote("/tmp/a_b.c"), "/tmp/a_b.c");
});

Deno.test("everything else is single-quoted, with quotes written as '\\''", () => {
  strictEqual(shellQuote(""), "''");
  strictEqual(shellQuote("a b"), "'a b'");
  strictEqual(shellQuote("$(x)"), "'$(x)'");
  strictEqual(shellQuote("it's"), `'it'\\''s'`);
  strictEqual(shellQuote("ñ"), "'ñ'");
});

Deno.test("shellJoin quotes each word", () => {
  strictEqual(shellJoin(["echo", "a b", "c"]), "echo 'a b' c");
});

Deno.test("quoted words read back byte-exact through bash", async () => {
  const words = ["$(touch x)", "`id`", "'; rm -rf ~; '", 'say "hi"\nline 2\ttab', "日本 ñ \\ !"];
  const out = await new Deno.Command("bash", {
    args: ["-c", `printf '%s\\0' ${shellJoin(words)}`],
    stdout: "piped",
  }).output();
  strictEqual(new TextDecoder().decode(out.stdout), words.map((w) => w + "\0").join(""));
});

Deno.test("shell names are identifiers only", () => {
  strictEqual(isShellName("PATH"), true);
  strictEqual(isShellName("_x1"), true);
  strictEqual(isShellName("1x"), false);
  strictEqual(isShellName("BASH_FUNC_f%%"), false);
  strictEqual(isShellName("a-b"), false);
});
