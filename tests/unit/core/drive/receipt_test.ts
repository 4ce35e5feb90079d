import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  awaitReceipt,
  HOOK_GRACE_MS,
  hookReceipt,
  inputRow,
  type ReceiptProbe,
  screenTaken,
} from "../../../../src/core/drive/receipt.ts";

const SCREENS = new URL("../../../fixtures/screens/", import.meta.url);
const screen = (name: string) => Deno.readTextFileSync(new URL(name, SCREENS));

/** The texts the recorded screens were made with (tests/agents: the real agents, the mock). */
const SENT: Record<string, string> = {
  "": "please say ok now",
  busy_: "a queued prompt",
  multiline_: "line one\nline two\nline three\nline four",
};

for (const agent of ["claude", "codex"] as const) {
  for (const [kind, sent] of Object.entries(SENT)) {
    Deno.test(`real ${agent}: the screen shows a ${kind || "plain "}prompt taken`, () => {
      const pasted = screen(`receipt_real_${agent}_${kind}pasted.txt`);
      const taken = screen(`receipt_real_${agent}_${kind}taken.txt`);
      strictEqual(screenTaken(pasted, taken, sent, agent), true);
      // An Enter the agent lost: the screen still holds the text.
      strictEqual(screenTaken(pasted, pasted, sent, agent), false);
    });
  }
}

Deno.test("the input box is found by the text's end, its start, or claude's paste placeholder", () => {
  const claude = screen("receipt_real_claude_pasted.txt");
  strictEqual(inputRow(claude, "please say ok now")?.fromBottom, 2);
  const pasted = screen("receipt_real_claude_multiline_pasted.txt");
  strictEqual(
    inputRow(pasted, "line one\nline two\nline three\nline four")?.needle.text,
    "[Pasted text",
  );
  strictEqual(inputRow("> \n> hi", "hi")?.fromBottom, 0);
  // A short text must end the row (where the cursor is), not just appear in it.
  strictEqual(inputRow("nothing here\n> ", "hi"), null);
});

const line = (r: Record<string, unknown>) => JSON.stringify({ runId: "run-1", ...r });

Deno.test("a hook receipt is the prompt hook carrying the text, with claude's prompt id", () => {
  const lines = [
    line({ event: "Stop", reply: "an earlier turn" }),
    line({ event: "UserPromptSubmit", prompt: "another text", promptId: "p0" }),
    line({ event: "UserPromptSubmit", prompt: "hello", promptId: "p1", runId: "old-run" }),
    line({ event: "UserPromptSubmit", prompt: "<task-notification>hello", promptId: "p2" }),
    line({ event: "UserPromptSubmit", prompt: "hello", promptId: "p3" }),
  ];
  deepStrictEqual(hookReceipt(lines, "run-1", "hello"), { promptId: "p3" });
  strictEqual(hookReceipt(lines.slice(0, 4), "run-1", "hello"), null);
  // codex says so only at the end of the turn it started.
  const codex = line({ event: "agent-turn-complete", prompt: "hello", promptId: "t1" });
  deepStrictEqual(hookReceipt([codex], "run-1", "hello"), { promptId: "t1" });
  const title = line({ event: "agent-turn-complete", prompt: "hello", aux: true });
  strictEqual(hookReceipt([title], "run-1", "hello"), null);
});

/** A clock that moves only when the loop sleeps. */
function clock() {
  let ms = 0;
  return {
    now: () => new Date(ms),
    sleep: (d: number) => {
      ms += d;
      return Promise.resolve();
    },
    at: () => ms,
  };
}

function probe(over: Partial<ReceiptProbe>): ReceiptProbe {
  return {
    sent: "hello",
    agent: "claude",
    runId: "run-1",
    newHookLines: null,
    capture: () => Promise.resolve("> hello"),
    before: "> hello",
    preferHook: false,
    timeoutMs: 5000,
    ...over,
  };
}

Deno.test("no sign by the timeout is unconfirmed; a taken screen confirms at once", async () => {
  const c = clock();
  deepStrictEqual(await awaitReceipt(c, probe({})), {
    confirmed: false,
    confirmedBy: null,
    promptId: null,
  });
  strictEqual(c.at(), 5000);
  const d = clock();
  const taken = await awaitReceipt(d, probe({ capture: () => Promise.resolve("> hello\n> ") }));
  deepStrictEqual(taken, { confirmed: true, confirmedBy: "screen", promptId: null });
  strictEqual(d.at(), 0);
});

Deno.test("with hooks at an idle agent, the hook is awaited a moment past the screen", async () => {
  const c = clock();
  let calls = 0;
  const hookAt = 400;
  const r = await awaitReceipt(
    c,
    probe({
      preferHook: true,
      capture: () => Promise.resolve("> hello\n> "),
      newHookLines: () => {
        calls++;
        return c.at() >= hookAt && calls < 1000
          ? [line({ event: "UserPromptSubmit", prompt: "hello", promptId: "p9" })]
          : [];
      },
    }),
  );
  deepStrictEqual(r, { confirmed: true, confirmedBy: "hook", promptId: "p9" });
  // A hook that never comes: the screen confirms once the grace is over.
  const d = clock();
  const late = await awaitReceipt(
    d,
    probe({
      preferHook: true,
      capture: () => Promise.resolve("> hello\n> "),
      newHookLines: () => [],
    }),
  );
  strictEqual(late.confirmedBy, "screen");
  strictEqual(d.at() >= HOOK_GRACE_MS && d.at() < 5000, true);
});
