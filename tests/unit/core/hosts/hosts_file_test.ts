/**
 * The hosts file (issue 24): read strictly, refused as a whole on any problem (with each problem
 * named), never half used; a name must match ^[a-z0-9][a-z0-9_-]*$ and `ssh` may not start with
 * `-`; the file must not be writable by others. Its default place follows XDG_CONFIG_HOME.
 */
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { defaultHostsFile, loadConfig } from "../../../../src/base/config.ts";
import { LisaError } from "../../../../src/base/errors.ts";
import {
  hostNamed,
  parseHosts,
  readHostsFile,
  usableHosts,
} from "../../../../src/core/hosts/mod.ts";

const UID = Deno.uid() ?? 0;

Deno.test("a good file gives its hosts, lisa defaulting to `lisa`", () => {
  const r = parseHosts(JSON.stringify({
    hosts: [
      { name: "box1", ssh: "box1" },
      { name: "gpu-2_b", ssh: "me@gpu2.example.com", lisa: " LISA_X=1 ~/bin/lisa " },
    ],
  }));
  deepStrictEqual(r.problems, []);
  deepStrictEqual(r.hosts, [
    { name: "box1", ssh: "box1", lisa: "lisa" },
    { name: "gpu-2_b", ssh: "me@gpu2.example.com", lisa: "LISA_X=1 ~/bin/lisa" },
  ]);
});

Deno.test("every problem is named, and a file with one is not used at all", () => {
  const r = parseHosts(JSON.stringify({
    hosts: [
      { name: "ok", ssh: "ok" },
      { name: "Box", ssh: "box" },
      { name: "-x", ssh: "x" },
      { name: "inj", ssh: "-oProxyCommand=touch /tmp/x" },
      { name: "sp", ssh: "a b" },
      { name: "ok", ssh: "again" },
      { name: "nl", ssh: "nl", lisa: "lisa\nrm -rf ~" },
      { name: "typo", ssh: "t", lsia: "x" },
      "box9",
    ],
    extra: 1,
  }));
  deepStrictEqual(r.hosts, []);
  const text = r.problems.join("\n");
  for (
    const needle of [
      'unknown field "extra"',
      'host 2: "name" must match',
      'host 3: "name" must match',
      'host 4: "ssh" must be an ssh destination',
      'host 5: "ssh"',
      'host 6: the name "ok" is used twice',
      'host 7: "lisa" must be the command line',
      'host 8: unknown field "lsia"',
      "host 9 must be an object",
    ]
  ) ok(text.includes(needle), `${needle} in:\n${text}`);
});

Deno.test("not JSON, not an object, no list: each says so", () => {
  ok(parseHosts("{").problems[0].startsWith("it is not JSON"));
  ok(parseHosts("[]").problems[0].includes("must be an object"));
  ok(parseHosts('{"hosts": 1}').problems[0].includes('"hosts" must be a list'));
});

function depsWith(env: Record<string, string>) {
  return { config: loadConfig(env, UID).config, uid: UID };
}

Deno.test("the file is found by LISA_HOSTS_FILE, else XDG_CONFIG_HOME, else HOME", () => {
  strictEqual(
    defaultHostsFile({ XDG_CONFIG_HOME: "/x/cfg", HOME: "/h" }),
    "/x/cfg/lisa/hosts.json",
  );
  strictEqual(
    defaultHostsFile({ XDG_CONFIG_HOME: "rel", HOME: "/h/" }),
    "/h/.config/lisa/hosts.json",
  );
  strictEqual(defaultHostsFile({}), undefined);
  strictEqual(depsWith({ LISA_HOSTS_FILE: "/a/h.json", HOME: "/h" }).config.hostsFile, "/a/h.json");
  strictEqual(depsWith({ HOME: "/h" }).config.hostsFile, "/h/.config/lisa/hosts.json");
});

Deno.test("a missing file is no hosts; a broken or open one is refused with hosts_file_invalid", () => {
  const dir = Deno.makeTempDirSync({ prefix: "lisa-hosts-" });
  try {
    const path = `${dir}/hosts.json`;
    const deps = depsWith({ LISA_HOSTS_FILE: path });
    deepStrictEqual(readHostsFile(deps), { path, exists: false, hosts: [], problems: [] });
    deepStrictEqual(usableHosts(deps), []);
    Deno.writeTextFileSync(path, JSON.stringify({ hosts: [{ name: "b", ssh: "b" }] }));
    Deno.chmodSync(path, 0o600);
    deepStrictEqual(usableHosts(deps).map((h) => h.name), ["b"]);
    Deno.chmodSync(path, 0o620);
    const open = readHostsFile(deps);
    ok(/writable by group or other \(mode 620\)/.test(open.problems[0]), open.problems[0]);
    throws(
      () => usableHosts(deps),
      (e: unknown) => e instanceof LisaError && e.code === "hosts_file_invalid",
    );
    throws(
      () => hostNamed(deps, "b"),
      (e: unknown) => e instanceof LisaError && e.code === "hosts_file_invalid",
    );
    Deno.chmodSync(path, 0o600);
    Deno.writeTextFileSync(path, "{not json");
    throws(
      () => usableHosts(deps),
      (e: unknown) =>
        e instanceof LisaError && e.code === "hosts_file_invalid" && e.message.includes(path),
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a name the file lacks, or that is no host name, is invalid_host (saying which exist)", () => {
  const dir = Deno.makeTempDirSync({ prefix: "lisa-hosts-" });
  try {
    const path = `${dir}/hosts.json`;
    Deno.writeTextFileSync(
      path,
      JSON.stringify({ hosts: [{ name: "b1", ssh: "b1" }, { name: "b2", ssh: "b2" }] }),
    );
    Deno.chmodSync(path, 0o600);
    const deps = depsWith({ LISA_HOSTS_FILE: path });
    strictEqual(hostNamed(deps, "b2").ssh, "b2");
    throws(
      () => hostNamed(deps, "b3"),
      (e: unknown) =>
        e instanceof LisaError && e.code === "invalid_host" && e.message.includes("b1, b2"),
    );
    throws(
      () => hostNamed(deps, "-oProxyCommand=x"),
      (e: unknown) => e instanceof LisaError && e.code === "invalid_host",
    );
    throws(
      () => hostNamed(depsWith({ LISA_HOSTS_FILE: `${dir}/none.json` }), "b1"),
      (e: unknown) =>
        e instanceof LisaError && e.code === "invalid_host" &&
        e.message.includes("no hosts file at"),
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
