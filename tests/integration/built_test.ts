/**
 * The built lisa (`deno task build`, what `deno task install` puts on PATH): one build in a temp
 * dir, then the calls that take each part (hook, status, list, the command table) run from it
 * with the flags the shim uses. A spawned fake claude's hooks must call the built lisa back.
 * (`deno task test:built` runs the integration and compatibility tiers against a build too.)
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { build, builtArgv, installShim } from "../../scripts/build.ts";
import { BUNDLE_RUN_FLAGS } from "../../src/base/deps.ts";
import { VERBS } from "../../src/cli/verbs.ts";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";
import { artifact, endStray, readIf, type Spawned } from "./lifecycle_helpers.ts";

async function run(world: World, argv: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: world.projectRoot,
    env: { ...world.env, ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  return { code: out.code, stdout, stderr: new TextDecoder().decode(out.stderr) };
}

/** Runs `lisa mcp` (argv `lisa`), makes `calls` in order, closes stdin; their results. */
async function runMcp(
  world: World,
  lisa: string[],
  calls: { name: string; arguments: Record<string, unknown> }[],
) {
  const lines = [
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    ...calls.map((c, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: c })),
  ];
  const child = new Deno.Command(lisa[0], {
    args: [...lisa.slice(1), "mcp"],
    cwd: world.projectRoot,
    env: world.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const answers: Record<string, unknown>[] = [];
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  // One request at a time: closing stdin ends the server (and cancels what still runs).
  for (const line of lines) {
    await writer.write(new TextEncoder().encode(JSON.stringify(line) + "\n"));
    if (!("id" in line)) continue;
    while (!answers.some((a) => a.id === line.id)) {
      const { value, done } = await reader.read();
      if (done) throw new Error("lisa mcp closed its stdout");
      rest += value;
      let nl: number;
      while ((nl = rest.indexOf("\n")) >= 0) {
        answers.push(JSON.parse(rest.slice(0, nl)));
        rest = rest.slice(nl + 1);
      }
    }
  }
  await writer.close();
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
  await child.stderr.cancel().catch(() => {});
  const status = await child.status;
  // deno-lint-ignore no-explicit-any
  const results = calls.map((_, i) => (answers.find((a) => a.id === i + 1) as any).result);
  return { code: status.code, results };
}

/**
 * A tmpfs on another filesystem than the system temp dir, where the one build's temp dir goes
 * when there is one: its bundles must then be moved into place across filesystems.
 */
function otherFilesystem(): string | undefined {
  try {
    const shm = Deno.statSync("/dev/shm");
    const tmp = Deno.statSync(Deno.env.get("TMPDIR") ?? "/tmp");
    return shm.isDirectory && shm.dev !== tmp.dev ? "/dev/shm" : undefined;
  } catch {
    return undefined;
  }
}

Deno.test("the built lisa runs every part: version, spawn with hooks calling it back, status, list, history, errors", async () => {
  const world = await makeWorld();
  const dist = `${world.base}/dist`;
  let spawned: Spawned | undefined;
  try {
    // One build serves every check (each build bundles ~55 entries).
    const { files } = await build(dist, { tempDir: otherFilesystem() });
    // The entry, its four parts, and one bundle per verb of the table; nothing of the build is
    // left beside them.
    strictEqual(files.length, 5 + Object.keys(VERBS).length);
    deepStrictEqual(
      [...Deno.readDirSync(dist)].map((e) => e.name).sort(),
      ["cli.js", "hook.js", "lisa.js", "list.js", "status.js", "verbs"],
    );
    const capture = Deno.readTextFileSync(`${dist}/verbs/session-capture.js`);
    // The hot parts carry neither the command table nor stricli.
    const status = Deno.readTextFileSync(`${dist}/status.js`);
    const cli = Deno.readTextFileSync(`${dist}/cli.js`);
    ok(cli.includes("print lisa's version"), "the table is in cli.js");
    ok(!status.includes("print lisa's version"), "no command table in status.js");
    ok(status.length < cli.length / 2, `status.js ${status.length} B, cli.js ${cli.length} B`);
    // A verb's bundle has the whole table (help, suggestions) but only its own verb's code.
    ok(capture.includes("print lisa's version"), "the table is in session-capture.js");
    ok(capture.length < cli.length / 2, `capture ${capture.length} B, cli.js ${cli.length} B`);

    const shim = await installShim(`${world.base}/root`, dist);
    const lisa = [shim];
    const source = await run(world, [...LISA_ARGV, "version", "--json"]);
    const built = await run(world, [...lisa, "version", "--json"]);
    strictEqual(built.code, 0, built.stderr);
    // The bundle knows the commit it was built from (marked +dirty when tracked files differ).
    const { commit: builtCommit, ...builtRest } = JSON.parse(built.stdout);
    const { commit: sourceCommit, ...sourceRest } = JSON.parse(source.stdout);
    deepStrictEqual(builtRest, sourceRest);
    if (sourceCommit === null) strictEqual(builtCommit, null); // not a git checkout
    else ok(builtCommit === sourceCommit || builtCommit === `${sourceCommit}+dirty`, built.stdout);

    const sp = await run(world, [...lisa, "session", "spawn", "--agent", "claude", "--json"], {
      FAKE_BEHAVIOR: "idle",
    });
    strictEqual(sp.code, 0, sp.stdout + sp.stderr);
    spawned = JSON.parse(sp.stdout) as Spawned;
    // The hooks injected into the agent call the built lisa, with its flags.
    ok(spawned.command.includes(`${dist}/lisa.js`), spawned.command);
    for (const flag of BUNDLE_RUN_FLAGS) ok(spawned.command.includes(flag), spawned.command);
    const hooks = await waitFor(() => {
      const text = readIf(artifact(world, spawned!, "hooks.jsonl")) ?? "";
      return text.includes('"SessionStart"') ? text : undefined;
    }, 30_000);
    ok(hooks !== undefined, "the fake claude's SessionStart hook reached the built lisa");

    const polled = await waitFor(async () => {
      const r = await run(world, [
        ...lisa,
        "session",
        "status",
        "--session",
        spawned!.session,
        "--json",
      ]);
      const report = JSON.parse(r.stdout);
      return report.sessionState === "waiting_input" ? report : undefined;
    }, 30_000);
    ok(polled !== undefined, "status through status.js reaches waiting_input");
    strictEqual((polled.signals.hooks as { active: boolean }).active, true);

    const list = await run(world, [...lisa, "session", "list", "--json"]);
    strictEqual(list.code, 0, list.stderr);
    const rows = JSON.parse(list.stdout).items as { session: string; state: string }[];
    strictEqual(rows.find((r) => r.session === spawned!.session)?.state, "waiting_input");

    // A status the pre-parser hands on (an unknown flag) reaches the table in cli.js.
    const typoArgs = ["session", "status", "--sesion", "x", "--json"];
    const typo = await run(world, [...lisa, ...typoArgs]);
    const typoSource = await run(world, [...LISA_ARGV, ...typoArgs]);
    strictEqual(typo.code, typoSource.code);
    ok(typo.code !== 0);
    strictEqual(typo.stdout, typoSource.stdout);
    ok(JSON.parse(typo.stdout).errorCode, typo.stdout);

    // A verb run from its own bundle answers as from source; help and typos go to cli.js.
    for (
      const args of [
        ["session", "exists", "--session", spawned.session, "--json"],
        ["session", "capture", "--help"],
        ["session", "captur", "--json"],
        ["histroy", "list"],
      ]
    ) {
      const fromBuilt = await run(world, [...lisa, ...args]);
      const fromSource = await run(world, [...LISA_ARGV, ...args]);
      strictEqual(fromBuilt.code, fromSource.code, args.join(" "));
      strictEqual(fromBuilt.stdout, fromSource.stdout, args.join(" "));
    }
    const kill = await run(world, [...lisa, "session", "kill", "--session", spawned.session]);
    strictEqual(kill.code, 0, kill.stdout + kill.stderr);
    // node:sqlite is imported at run time from the bundle.
    const history = await run(world, [...lisa, "history", "list", "--json"]);
    strictEqual(history.code, 0, history.stderr);
    ok(history.stdout.includes(spawned.session), history.stdout);
    ok(builtArgv(dist).includes(`${dist}/lisa.js`));

    // `lisa mcp` runs from its own bundle, which has every verb and the SDK; cli.js has neither.
    const mcpBundle = Deno.readTextFileSync(`${dist}/verbs/mcp.js`);
    ok(mcpBundle.includes("notifications/initialized"), "the SDK is in verbs/mcp.js");
    ok(!cli.includes("notifications/initialized"), "no SDK in cli.js");
    ok(!capture.includes("notifications/initialized"), "no SDK in a verb's bundle");
    const served = await runMcp(world, lisa, [
      { name: "version", arguments: {} },
      { name: "exists", arguments: { session: spawned.session } },
    ]);
    strictEqual(served.code, 0);
    strictEqual(served.results[0].isError, false, JSON.stringify(served.results));
    strictEqual(served.results[1].structuredContent.exists, false, JSON.stringify(served.results));
  } finally {
    await endStray();
    await world.dispose();
  }
});
