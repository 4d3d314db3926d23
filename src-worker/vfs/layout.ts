/**
 * The default sandbox layout: the directories, /etc files and /dev nodes a
 * fresh sandbox starts with.
 */
import { Errno, fail } from '../base/errno.js';
import { utf8ToPath } from '../base/bytes.js';
import type { DefaultLayoutOptions, Vfs } from './types.js';

/** The unprivileged account sandboxes run as. */
export const USER_UID = 1000;
export const USER_GID = 1000;
export const USER_HOME = '/home/user';

const enc = new TextEncoder();

const DIRS: ReadonlyArray<readonly [string, number]> = [
  ['/bin', 0o755],
  ['/usr', 0o755],
  ['/usr/bin', 0o755],
  ['/usr/local', 0o755],
  ['/usr/local/bin', 0o755],
  ['/etc', 0o755],
  ['/home', 0o755],
  [USER_HOME, 0o755],
  ['/root', 0o700],
  ['/tmp', 0o1777],
  ['/dev', 0o755],
  ['/dev/fd', 0o555],
  ['/proc', 0o555],
  ['/var', 0o755],
  ['/var/tmp', 0o1777],
];

/** Character devices the kernel serves, with their modes. */
const DEVICES: ReadonlyArray<readonly [string, number]> = [
  ['null', 0o666],
  ['zero', 0o666],
  ['full', 0o666],
  ['random', 0o666],
  ['urandom', 0o666],
  ['tty', 0o666],
  ['stdin', 0o666],
  ['stdout', 0o666],
  ['stderr', 0o666],
];

function profile(): string {
  return [
    '# /etc/profile: login shell setup for sandglass sandboxes',
    'export PATH=/usr/local/bin:/usr/bin:/bin',
    'export HOME="${HOME:-/home/user}"',
    'export LANG=C.UTF-8',
    "PS1='\\u@\\h:\\w\\$ '",
    '',
  ].join('\n');
}

/** Populate an empty VFS with the default layout (as root). */
export function populateDefaultLayout(vfs: Vfs, opts: DefaultLayoutOptions = {}): void {
  if (opts.hostname !== undefined && !/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,62})$/.test(opts.hostname)) {
    fail(Errno.EINVAL, `bad hostname ${JSON.stringify(opts.hostname)}`);
  }
  for (const [path, mode] of DIRS) {
    vfs.mkdir(path, mode);
    vfs.chmod(path, mode); // mkdir modes are taken as-is, but be explicit for the special bits
  }
  vfs.chown(USER_HOME, USER_UID, USER_GID);
  const files: ReadonlyArray<readonly [string, string, number]> = [
    [
      '/etc/passwd',
      'root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:user:/home/user:/bin/bash\n' +
        'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n',
      0o644,
    ],
    ['/etc/group', 'root:x:0:\nuser:x:1000:\nnogroup:x:65534:\n', 0o644],
    ['/etc/hostname', `${opts.hostname ?? 'sandglass'}\n`, 0o644],
    [
      '/etc/hosts',
      `127.0.0.1\tlocalhost\n::1\tlocalhost\n127.0.1.1\t${opts.hostname ?? 'sandglass'}\n`,
      0o644,
    ],
    ['/etc/shells', '/bin/sh\n/bin/bash\n', 0o644],
    ['/etc/profile', profile(), 0o644],
  ];
  for (const [path, text, mode] of files) {
    vfs.writeFile(path, enc.encode(text), { mode });
  }
  for (const [name, mode] of DEVICES) {
    vfs.mknod(utf8ToPath(`/dev/${name}`), 'chardev', mode, name);
  }
}
