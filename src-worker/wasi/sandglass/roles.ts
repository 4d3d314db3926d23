/**
 * Role grants of the `sandglass` namespace (docs/abi.md "Role grants").
 * Pure data, shared by the kernel (which assigns roles) and the worker
 * (which refuses modules importing more than their role grants).
 */

export type Role = 'shell' | 'utility' | 'proc' | 'net';

export const ABI_VERSION = 1;

export const METADATA_GROUP = [
  'path_stat_ext',
  'fd_stat_ext',
  'path_chmod',
  'path_chown',
  'path_access',
  'getuid',
  'umask',
] as const;

export const PROCESS_GROUP = [
  'spawn',
  'exec',
  'wait',
  'kill',
  'getpid',
  'setpgid',
  'getpgid',
  'sigaction',
  'sigpending',
  'chdir',
  'getcwd',
  'pipe',
  'dup',
  'dup2',
  'fd_cloexec',
  'isatty',
  'handle_read',
] as const;

export const SHELL_ONLY = [
  'tty_get',
  'tty_set',
  'tty_winsize',
  'tcsetpgrp',
  'tcgetpgrp',
  'session_next',
  'session_done',
  'step_begin',
  'step_end',
  'ctl_take',
] as const;

/** HTTP through the sandbox's gateway (curl, wget, Python); heads come back as handles. */
export const NET_GROUP = [
  'net_request',
  'net_body_write',
  'net_response',
  'net_body_read',
  'net_body_splice',
  'net_close',
  'handle_read',
] as const;

/**
 * The cwd as the kernel records it: every program may ask, since a parent
 * may pass an exact environment without `PWD` (`env -i`).
 */
export const CWD_QUERY = ['getcwd', 'handle_read'] as const;

const grants: Record<Role, ReadonlySet<string>> = {
  utility: new Set<string>([...METADATA_GROUP, ...CWD_QUERY]),
  proc: new Set<string>([...METADATA_GROUP, ...PROCESS_GROUP]),
  shell: new Set<string>([...METADATA_GROUP, ...PROCESS_GROUP, ...SHELL_ONLY]),
  // A network client: file metadata (-o, -T, --output-dir), a tty check for
  // the progress meter, its own SIGPIPE disposition (curl and wget ignore
  // it and fail a write to a closed pipe with their own exit status), the
  // net calls; never control of other processes.
  net: new Set<string>([...METADATA_GROUP, ...CWD_QUERY, 'isatty', 'sigaction', ...NET_GROUP]),
};

export function granted(role: Role): ReadonlySet<string> {
  return grants[role];
}

export function isRole(s: string): s is Role {
  return s === 'shell' || s === 'utility' || s === 'proc' || s === 'net';
}
