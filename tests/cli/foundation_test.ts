import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { projectHash } from "../../src/core/session/identity.ts";

const NAME_RE =
  /^lisa-[a-z0-9]{1,10}-\d{6}-\d{6}-\d{9}-(claude|codex)-(interactive|exec)(-[a-z0-9]{1,16})?$/;

Deno.test("session name --json prints a name ending in -codex-exec-mytag", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess([
      "session",
      "name",
      "--agent",
      "codex",
      "--mode",
      "exec",
      "--tag",
      "My Tag!!",
      "--json",
    ]);
    strictEqual(r.code, 0, r.stderr);
    ok(r.json, r.stdout);
    const name = r.json.session as string;
    ok(NAME_RE.test(name), name);
    ok(name.startsWith("lisa-project-"), name);
    ok(name.endsWith("-codex-exec-mytag"), name);
    const root = Deno.realPathSync(world.projectRoot);
    deepStrictEqual(
      { ...r.json, session: undefined },
      {
        session: undefined,
        agent: "codex",
        mode: "exec",
        projectRoot: root,
        projectHash: projectHash(root),
        stderrPolicy: "diagnostic",
      },
    );
    strictEqual(r.stdout.trim().split("\n").length, 1, "exactly one JSON document");
  } finally {
    await world.dispose();
  }
});

Deno.test("--flag=value works like --flag value", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["session", "name", "--tag=x", "--mode=exec"]);
    strictEqual(r.code, 0, r.stderr);
    ok(r.stdout.trim().endsWith("-claude-exec-x"), r.stdout);
    ok(NAME_RE.test(r.stdout.trim()), r.stdout);
  } finally {
    await world.dispose();
  }
});

Deno.test("session name uses --project-root, symlinks resolved", async () => {
  const world = await makeWorld();
  try {
    const real = `${world.base}/Odd Name!`;
    Deno.mkdirSync(real);
    Deno.symlinkSync(real, `${world.base}/alias`);
    const r = await world.lisaInProcess([
      "session",
      "name",
      "--project-root",
      `${world.base}/alias`,
      "--json",
    ]);
    strictEqual(r.code, 0, r.stderr);
    strictEqual(r.json?.projectRoot, Deno.realPathSync(real));
    ok((r.json?.session as string).startsWith("lisa-oddname-"));
  } finally {
    await world.dispose();
  }
});

Deno.test("an unknown command exits 1 with a did-you-mean hint on stderr", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["sesion", "name"]);
    strictEqual(r.code, 1);
    strictEqual(r.stdout, "");
    ok(/did you mean "session"\?/i.test(r.stderr), r.stderr);
    const sub = await world.lisaInProcess(["session", "nmae"]);
    strictEqual(sub.code, 1);
    ok(/did you mean "name"\?/i.test(sub.stderr), sub.stderr);
  } finally {
    await world.dispose();
  }
});

Deno.test("an unknown flag exits 1 with a did-you-mean hint", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["session", "name", "--tagg", "x"]);
    strictEqual(r.code, 1);
    ok(/did you mean --tag\?/i.test(r.stderr), r.stderr);
  } finally {
    await world.dispose();
  }
});

Deno.test("with --json an unknown flag is a JSON error on stdout with unknown_option", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["session", "name", "--bogus", "--json"]);
    strictEqual(r.code, 1);
    ok(r.json, r.stdout);
    strictEqual(r.json.ok, false);
    strictEqual(r.json.errorCode, "unknown_option");
    ok(typeof r.json.error === "string" && r.json.error.includes("--bogus"), r.stdout);
    const cmd = await world.lisaInProcess(["sesion", "--json"]);
    strictEqual(cmd.code, 1);
    deepStrictEqual([cmd.json?.ok, cmd.json?.errorCode], [false, "unknown_command"]);
  } finally {
    await world.dispose();
  }
});

Deno.test("with --json a bad value is a JSON error too", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["session", "name", "--agent", "gpt", "--json"]);
    strictEqual(r.code, 1);
    strictEqual(r.json?.ok, false);
    ok(typeof r.json?.errorCode === "string" && typeof r.json?.error === "string", r.stdout);
  } finally {
    await world.dispose();
  }
});

Deno.test("version --json reports lisa's and Deno's versions", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["version", "--json"]);
    strictEqual(r.code, 0, r.stderr);
    strictEqual(r.json?.ok, true);
    ok(/^\d+\.\d+\.\d+/.test(r.json?.version as string), r.stdout);
    strictEqual(r.json?.deno, Deno.version.deno);
    strictEqual(r.json?.stderrPolicy, "diagnostic");
    const plain = await world.lisaInProcess(["version"]);
    ok(plain.stdout.startsWith(`lisa ${r.json?.version}`), plain.stdout);
  } finally {
    await world.dispose();
  }
});

Deno.test("lisa --help exits 0 and lists the commands", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["--help"]);
    strictEqual(r.code, 0);
    for (const word of ["version", "doctor", "session"]) ok(r.stdout.includes(word), r.stdout);
  } finally {
    await world.dispose();
  }
});

Deno.test("doctor --json flags an invalid LISA_EVENTS_MAX_LINES and uses the default", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["doctor", "--json"], {
      env: { LISA_EVENTS_MAX_LINES: "-5" },
    });
    ok(r.json, r.stdout);
    const vars = r.json.variables as {
      name: string;
      valid: boolean;
      value: unknown;
      message?: string;
    }[];
    ok(Array.isArray(vars) && vars.length > 0);
    ok(vars.every((v) => typeof v.valid === "boolean"), "every variable has a valid flag");
    const lines = vars.find((v) => v.name === "LISA_EVENTS_MAX_LINES");
    strictEqual(lines?.valid, false);
    strictEqual(lines?.value, 2000);
    ok(lines?.message?.includes("-5"), lines?.message);
    ok(vars.filter((v) => v.name !== "LISA_EVENTS_MAX_LINES").every((v) => v.valid));
    strictEqual(r.json.stderrPolicy, "diagnostic");
  } finally {
    await world.dispose();
  }
});

Deno.test("an unsafe runtime dir is refused with runtime_dir_unsafe", async () => {
  const world = await makeWorld();
  try {
    Deno.chmodSync(world.runtimeDir, 0o755);
    const r = await world.lisaInProcess(["session", "name", "--json"]);
    strictEqual(r.code, 1);
    deepStrictEqual([r.json?.ok, r.json?.errorCode], [false, "runtime_dir_unsafe"]);
  } finally {
    await world.dispose();
  }
});

Deno.test("flags that exclude each other are conflicting_options in every verb (watch --any --all, guard --enforce --advice-only), a flag missing its partner missing_argument", async () => {
  const world = await makeWorld();
  try {
    for (
      const args of [
        ["session", "watch", "--until", "terminal", "--any", "--all", "--json"],
        ["session", "guard", "--enforce", "--advice-only", "--json"],
      ]
    ) {
      const r = await world.lisaInProcess(args);
      strictEqual(r.code, 1, r.stdout);
      strictEqual(r.json?.errorCode, "conflicting_options", `${args.join(" ")}: ${r.stdout}`);
    }
    // A flag that needs another one is missing_argument, as elsewhere.
    const r = await world.lisaInProcess(["session", "watch", "--any", "--json"]);
    strictEqual(r.json?.errorCode, "missing_argument", r.stdout);
  } finally {
    await world.dispose();
  }
});
