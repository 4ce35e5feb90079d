/**
 * The ssh argv lisa builds (issue 24): only BatchMode, a ConnectTimeout, no agent/X11/port
 * forwarding and connection sharing added to the user's own ssh configuration, the destination
 * after `--`, a short control socket path in the runtime dir.
 */
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { controlPathFor, remoteCommandLine, sshArgv } from "../../../../src/core/hosts/mod.ts";
import { LisaError } from "../../../../src/base/errors.ts";

Deno.test("ssh gets BatchMode, a ConnectTimeout, no forwarding, a shared connection, and -- before the destination", () => {
  deepStrictEqual(
    sshArgv({
      program: "ssh",
      destination: "box1",
      command: "lisa version",
      tty: false,
      connectTimeoutSeconds: 5,
      controlPath: "/tmp/lisa-0/ssh-0123456789ab",
    }),
    [
      "ssh",
      "-T",
      "-a",
      "-x",
      "-o",
      "BatchMode=yes",
      "-o",
      "ConnectTimeout=5",
      "-o",
      "ClearAllForwardings=yes",
      "-o",
      "ControlMaster=auto",
      "-o",
      "ControlPersist=60",
      "-o",
      "ControlPath=/tmp/lisa-0/ssh-0123456789ab",
      "--",
      "box1",
      "lisa version",
    ],
  );
});

Deno.test("attach asks for a terminal (-t); without a control path nothing is shared", () => {
  const argv = sshArgv({
    program: "/usr/bin/ssh",
    destination: "me@box",
    command: "lisa session attach",
    tty: true,
    connectTimeoutSeconds: 3,
    controlPath: null,
  });
  strictEqual(argv[1], "-t");
  ok(argv.includes("ControlMaster=no") && argv.includes("ControlPath=none"), argv.join(" "));
  deepStrictEqual(argv.slice(-3), ["--", "me@box", "lisa session attach"]);
});

Deno.test("a destination that starts with - is refused: invalid_host", () => {
  for (const destination of ["-oProxyCommand=touch /tmp/x", "-", ""]) {
    throws(
      () =>
        sshArgv({
          program: "ssh",
          destination,
          command: "x",
          tty: false,
          connectTimeoutSeconds: 5,
          controlPath: null,
        }),
      (e: unknown) => e instanceof LisaError && e.code === "invalid_host",
      destination,
    );
  }
});

Deno.test("the control socket is a short hashed name in the runtime dir, or none where it cannot be", () => {
  const a = controlPathFor("/tmp/lisa-1000", "box1")!;
  ok(/^\/tmp\/lisa-1000\/ssh-[0-9a-f]{12}$/.test(a), a);
  strictEqual(controlPathFor("/tmp/lisa-1000/", "box1"), a);
  ok(controlPathFor("/tmp/lisa-1000", "box2") !== a, "one socket per destination");
  // sun_path is ~104 bytes, and ssh adds a suffix while it sets the socket up.
  strictEqual(controlPathFor(`/tmp/${"d".repeat(80)}`, "box1"), null);
  ok(controlPathFor(`/tmp/${"d".repeat(50)}`, "box1") !== null);
  // ssh would expand %-tokens and split at spaces in the option's value.
  strictEqual(controlPathFor("/tmp/a%h", "box1"), null);
  strictEqual(controlPathFor("/tmp/a b", "box1"), null);
});

Deno.test("the remote command line is the host's lisa, then every argument quoted; NUL is refused", () => {
  strictEqual(
    remoteCommandLine("LISA_X=1 /opt/lisa", ["session", "send", "--text", "it's $(x)"], false),
    `LISA_X=1 /opt/lisa session send --text 'it'\\''s $(x)'`,
  );
  throws(
    () => remoteCommandLine("lisa", ["a\0b"], false),
    (e: unknown) => e instanceof LisaError && e.code === "invalid_argument",
  );
  const guarded = remoteCommandLine("lisa", ["session", "watch"], true);
  ok(guarded.includes("lisa session watch 3<&- &"), guarded);
  ok(guarded.startsWith("exec 3<&0 </dev/null; "), guarded);
});
