import { deepStrictEqual } from "node:assert/strict";
import { removeSessionArtifacts } from "../../../../src/core/session/artifacts.ts";

const FILES = [
  ".lisa-aaaaaaaa-session-lisa-x-meta.json",
  ".lisa-aaaaaaaa-session-lisa-x-state.json",
  ".lisa-aaaaaaaa-session-lisa-x-state.json.lock",
  ".lisa-aaaaaaaa-session-lisa-x-heartbeat.txt",
  ".lisa-aaaaaaaa-session-lisa-x-done.txt",
  ".lisa-aaaaaaaa-session-lisa-x-hooks.jsonl",
  ".lisa-aaaaaaaa-session-lisa-x-events.jsonl",
  ".lisa-aaaaaaaa-session-lisa-x-events.jsonl.lock",
  ".lisa-aaaaaaaa-session-lisa-x-input.lock",
  "lisa-aaaaaaaa-output-lisa-x.txt",
  "lisa-cmd-aaaaaaaa-lisa-x-123456.sh",
  ".lisa-bbbbbbbb-session-lisa-x-meta.json",
  ".lisa-aaaaaaaa-session-lisa-x2-meta.json",
];

function fill(dir: string) {
  for (const f of FILES) Deno.writeTextFileSync(`${dir}/${f}`, "x");
}

function left(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("removal keeps the event log and other sessions, and stays within the hash", () => {
  const dir = Deno.makeTempDirSync();
  try {
    fill(dir);
    removeSessionArtifacts(dir, "lisa-x", { hash: "aaaaaaaa" });
    deepStrictEqual(left(dir), [
      ".lisa-aaaaaaaa-session-lisa-x-events.jsonl",
      ".lisa-aaaaaaaa-session-lisa-x-events.jsonl.lock",
      ".lisa-aaaaaaaa-session-lisa-x2-meta.json",
      ".lisa-bbbbbbbb-session-lisa-x-meta.json",
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("removal across hashes takes the name's artifacts under every hash", () => {
  const dir = Deno.makeTempDirSync();
  try {
    fill(dir);
    removeSessionArtifacts(dir, "lisa-x");
    deepStrictEqual(left(dir), [
      ".lisa-aaaaaaaa-session-lisa-x-events.jsonl",
      ".lisa-aaaaaaaa-session-lisa-x-events.jsonl.lock",
      ".lisa-aaaaaaaa-session-lisa-x2-meta.json",
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
