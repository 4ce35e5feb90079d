/**
 * "Did you mean": a suggestion names a real flag of the verb (as documented, kebab-case) or a
 * real command, or nothing; the help hint names the command that exists, never the typo.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { flagsOf } from "../../src/cli/completion_script.ts";
import { GROUPS, VERBS } from "../../src/cli/verbs.ts";
import { callStubbed as call } from "../helpers/cli_call.ts";

/** The words a message suggests: what follows "did you mean", split on " or ". */
function suggested(message: string): string[] {
  const m = /\(did you mean (.+)\?\)/.exec(message);
  return m === null ? [] : m[1].split(" or ").map((w) => w.replaceAll('"', ""));
}

Deno.test("an unknown flag far from every flag suggests nothing (send --wrong)", async () => {
  const r = await call(["session", "send", "--wrong", "--json"]);
  strictEqual(r.code, 1);
  deepStrictEqual(
    [r.json?.errorCode, r.json?.error],
    ["unknown_option", "unknown flag --wrong"],
  );
  const plain = await call(["session", "send", "--wrong"]);
  strictEqual(plain.stderr, "lisa: unknown flag --wrong\n(see: lisa session send --help)\n");
});

Deno.test("a misspelt flag suggests the flag as documented, never its camelCase key", async () => {
  const r = await call(["session", "send", "--timeout-secnds", "3", "--json"]);
  strictEqual(r.json?.error, "unknown flag --timeout-secnds (did you mean --timeout-seconds?)");
  const cut = await call(["session", "send", "--timeout", "3", "--json"]);
  deepStrictEqual(suggested(String(cut.json?.error)), ["--timeout-seconds"]);
  // A flag another verb has is not suggested to a verb without it.
  const status = await call(["session", "status", "--timeoutSeconds", "3", "--json"]);
  strictEqual(status.json?.error, "unknown flag --timeoutSeconds");
  const neg = await call(["session", "spawn", "--no-json", "--json"]);
  strictEqual(neg.json?.error, "unknown flag --no-json: --json has no --no- form (leave it out)");
});

Deno.test("every verb: a one-letter typo of each flag suggests only real flags of that verb", async () => {
  for (const route of Object.keys(VERBS)) {
    const names = new Set([...flagsOf(route).map((f) => f.name), "--help"]);
    for (const name of names) {
      if (name === "--help" || name.length < 6) continue;
      const typo = name.slice(0, -2) + name.at(-1); // drop the second-to-last letter
      if (names.has(typo)) continue;
      const r = await call([...route.split(" "), typo, "--json"]);
      strictEqual(r.json?.errorCode, "unknown_option", `${route} ${typo}: ${r.stdout}`);
      const hint = suggested(String(r.json?.error));
      ok(hint.includes(name), `${route} ${typo} suggests ${name}: ${r.json?.error}`);
      for (const h of hint) ok(names.has(h), `${route} ${typo}: ${h} is not a flag of the verb`);
    }
  }
});

Deno.test("a misspelt command suggests real commands of its group, and the hint names the group", async () => {
  const r = await call(["session", "sned", "--help"]);
  strictEqual(r.code, 1);
  strictEqual(
    r.stderr,
    'lisa: unknown command "sned" (did you mean "send"?)\n(see: lisa session --help)\n',
  );
  const kil = await call(["session", "kil", "--json"]);
  deepStrictEqual(suggested(String(kil.json?.error)), ["kill", "kill-all"]);
  const far = await call(["session", "xyzzy"]);
  strictEqual(far.stderr, 'lisa: unknown command "xyzzy"\n(see: lisa session --help)\n');
  const top = await call(["histroy", "list"]);
  strictEqual(
    top.stderr,
    'lisa: unknown command "histroy" (did you mean "history"?)\n' +
      "(see: lisa --help)\n",
  );
  for (const group of Object.keys(GROUPS)) {
    const words = group === "" ? [] : group.split(" ");
    const typo = await call([...words, "stauts", "--json"]);
    for (const h of suggested(String(typo.json?.error))) {
      ok(Object.hasOwn(VERBS, [...words, h].join(" ")) || Object.hasOwn(GROUPS, h), h);
    }
  }
});

Deno.test("past a positional, the help hint still names the verb", async () => {
  const r = await call(["history", "show", "lisa-a", "--jsn"]);
  strictEqual(
    r.stderr,
    "lisa: unknown flag --jsn (did you mean --json?)\n" +
      "(see: lisa history show --help)\n",
  );
});
