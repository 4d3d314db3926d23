/** A directory description over a fixed listing (generated /proc directories). */
import { Errno, fail } from '../base/errno.js';
import { FT, OpenFile, type DirListEntry, type KStat } from './openFile.js';

export class ListDirFile extends OpenFile {
  readonly filetype = FT.dir;
  private readonly list: DirListEntry[];

  constructor(entries: readonly DirListEntry[]) {
    super();
    const dot = (n: string): Uint8Array => Uint8Array.from(n, (c) => c.charCodeAt(0));
    this.list = [
      { name: dot('.'), ino: 0, filetype: FT.dir },
      { name: dot('..'), ino: 0, filetype: FT.dir },
      ...entries,
    ];
  }

  override read(): Uint8Array {
    return fail(Errno.EISDIR);
  }

  override readdir(cookie: number): DirListEntry[] {
    return this.list.slice(cookie);
  }

  override stat(): KStat {
    const now = Date.now();
    return {
      dev: 2,
      ino: 0,
      filetype: FT.dir,
      nlink: 2,
      size: 0,
      atime: now,
      mtime: now,
      ctime: now,
      mode: 0o040555,
      uid: 0,
      gid: 0,
    };
  }
}
