/**
 * Other hosts over OpenSSH (issue 24): the hosts file, running lisa on a host, fleet queries,
 * `hosts check`. The local lisa runs the remote host's lisa
 * over `ssh` and reads its `--json`; nothing of lisa's own runs between them.
 */
export {
  checkHostName,
  DEFAULT_REMOTE_LISA,
  HOST_NAME_RE,
  type HostEntry,
  hostNamed,
  type HostsFile,
  parseHosts,
  readHostsFile,
  usableHosts,
} from "./hosts_file.ts";
export { CONTROL_PERSIST_SECONDS, controlPathFor, remoteCommandLine, sshArgv } from "./ssh.ts";
export {
  type HostCallOptions,
  type HostCallResult,
  runOnHost,
  unreachable,
} from "./run_on_host.ts";
export { type HostAnswer, type HostOutcome, outcomeOf, queryHost, queryHosts } from "./query.ts";
export { type Doc, tagJsonLine, withHost } from "./tag.ts";
export { checkHost, checkHosts, type HostCheck } from "./check.ts";
