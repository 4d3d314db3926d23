/**
 * The last root-relative stat's mode, uid, gid and nlink. `ls -l`, `du` and
 * `stat` ask for them (PATH_STAT_EXT) right after the plain stat of the same
 * path; they cannot change without the namespace version moving, so the
 * guest answers that second call itself.
 */
import type { ChannelClient } from '../channel/client.js';
import { ROOT_FD } from '../base/syscalls.js';
import { walkKey } from './dirTree.js';

/** Mode, uid, gid, nlink: PATH_STAT_EXT's answer. */
export type StatExt = readonly [number, number, number, number];

interface Memo {
  readonly key: string;
  readonly follow: number;
  readonly epoch: number;
  readonly ext: StatExt;
}

export class StatMemo {
  private last: Memo | undefined;

  constructor(private readonly sys: ChannelClient) {}

  /** A PATH_STAT of (dirfd, path) just succeeded: keep the extended fields of its reply. */
  remember(dirfd: number, path: Uint8Array, follow: number): void {
    const key = dirfd === ROOT_FD ? walkKey(path) : undefined;
    // Stat reply slots (kernel/handlers/common.ts statReply): nlink at 3, mode/uid/gid at 8..10.
    const r = this.sys.rets;
    this.last =
      key === undefined
        ? undefined
        : {
            key,
            follow,
            epoch: this.sys.epoch(),
            ext: [r[8] as number, r[9] as number, r[10] as number, r[3] as number],
          };
  }

  /** PATH_STAT_EXT of `path` if the last stat was of it and nothing has changed since. */
  lookup(path: Uint8Array, follow: number): StatExt | undefined {
    const last = this.last;
    if (!last || last.follow !== follow || last.epoch !== this.sys.epoch()) return undefined;
    return walkKey(path) === last.key ? last.ext : undefined;
  }
}
