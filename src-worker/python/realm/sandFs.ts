/**
 * SandFS: an Emscripten file system type whose every operation is a kernel
 * syscall, mounted as the interpreter's root. Python then sees exactly the
 * files the shell sees (modes, limits, other processes' changes), and the
 * kernel checks every permission. Nodes are Emscripten's cache of names;
 * when the kernel's namespace version moves (another process created,
 * removed or renamed something) the cache is dropped, so the next lookup
 * asks the kernel again. Errors must be `FS.ErrnoError`: anything else is
 * a "fatal error" for Pyodide, so unexpected throws become EIO.
 */
import type { EmscriptenFS, FsMount, FsNode, FsStream } from './emscripten.js';
import { FD_APPEND, O, type KernelCalls, type KStat } from './kernelCalls.js';

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const O_ACCMODE = 3;
const O_CREAT_EM = 64;
const O_APPEND_EM = 1024;
const EIO = 29;

export interface SandFs {
  /** Make the kernel's root the root, keep `keep` (absolute MEMFS dirs) visible over it. */
  mountRoot(keep: readonly string[]): void;
  /** Stream operations over a kernel descriptor (`stream.kfd`), for pipes made elsewhere. */
  readonly streamOps: unknown;
}

export function createSandFs(FS: EmscriptenFS, k: KernelCalls): SandFs {
  const guard =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A): R => {
      try {
        return f(...a);
      } catch (e) {
        if (e instanceof FS.ErrnoError) throw e;
        throw new FS.ErrnoError(EIO);
      }
    };

  /** The node mknod just made: Emscripten's open then chmods it to the mode asked, without the umask. */
  let created: FsNode | undefined;

  /** Synthetic mount points (MEMFS trees kept over the kernel root), by name under /. */
  const synthetic = new Set<string>();

  function realPath(node: FsNode): string {
    const parts: string[] = [];
    let n = node;
    while (n.parent !== n) {
      parts.push(n.name);
      n = n.parent;
    }
    return '/' + parts.reverse().join('/');
  }

  function toStat(node: FsNode, s: KStat): Record<string, unknown> {
    return {
      dev: s.dev,
      ino: s.ino || node.id,
      mode: s.mode,
      nlink: s.nlink,
      uid: s.uid,
      gid: s.gid,
      rdev: 0,
      size: s.size,
      atime: new Date(s.atime),
      mtime: new Date(s.mtime),
      ctime: new Date(s.ctime),
      blksize: 4096,
      blocks: Math.ceil(s.size / 512),
    };
  }

  function createNode(parent: FsNode | null, name: string, mode: number): FsNode {
    const node = FS.createNode(parent, name, mode);
    node.node_ops = nodeOps;
    node.stream_ops = streamOps;
    return node;
  }

  const childPath = (parent: FsNode, name: string): string => {
    const p = realPath(parent);
    return p === '/' ? `/${name}` : `${p}/${name}`;
  };

  const nodeOps = {
    getattr: guard((node: FsNode) => {
      if (node.parent === node || !synthetic.has(realPath(node))) {
        const s = k.lstat(realPath(node));
        node.mode = s.mode;
        return toStat(node, s);
      }
      const now = new Date();
      return {
        dev: 1,
        ino: node.id,
        mode: node.mode,
        nlink: 1,
        uid: 0,
        gid: 0,
        rdev: 0,
        size: 4096,
        atime: now,
        mtime: now,
        ctime: now,
        blksize: 4096,
        blocks: 8,
      };
    }),
    setattr: guard(
      (node: FsNode, attr: { mode?: number; atime?: number; mtime?: number; size?: number }) => {
        const path = realPath(node);
        if (attr.mode !== undefined) {
          let mode = attr.mode & 0o7777;
          if (node === created) mode &= ~k.umask();
          created = undefined;
          k.chmod(path, mode);
          node.mode = (node.mode & S_IFMT) | mode;
        }
        if (attr.atime !== undefined || attr.mtime !== undefined) {
          k.utimes(path, attr.atime ?? Number.NaN, attr.mtime ?? Number.NaN);
        }
        if (attr.size !== undefined) {
          const fd = k.open(path, 0, false, true);
          try {
            k.ftruncate(fd, attr.size);
          } finally {
            k.close(fd);
          }
        }
      },
    ),
    lookup: guard((parent: FsNode, name: string) => {
      const path = childPath(parent, name);
      if (synthetic.has(path)) return createNode(parent, name, S_IFDIR | 0o555);
      return createNode(parent, name, k.lstat(path).mode);
    }),
    mknod: guard((parent: FsNode, name: string, mode: number) => {
      const path = childPath(parent, name);
      if ((mode & S_IFMT) === S_IFDIR) k.mkdir(path);
      else if ((mode & S_IFMT) === S_IFREG) k.close(k.open(path, O.CREAT | O.EXCL, false, true));
      else throw new FS.ErrnoError(63);
      const s = k.lstat(path);
      // The kernel created it with its umask applied to 0666/0777: narrow to what was asked.
      const want = mode & 0o7777;
      if ((s.mode & 0o7777 & ~want) !== 0) k.chmod(path, s.mode & want & 0o7777);
      created = createNode(parent, name, (s.mode & S_IFMT) | (s.mode & want & 0o7777));
      return created;
    }),
    rename: guard((node: FsNode, newDir: FsNode, newName: string) => {
      k.rename(realPath(node), childPath(newDir, newName));
    }),
    unlink: guard((parent: FsNode, name: string) => k.unlink(childPath(parent, name))),
    rmdir: guard((parent: FsNode, name: string) => k.rmdir(childPath(parent, name))),
    readdir: guard((node: FsNode) => {
      const names = k.listdir(realPath(node));
      if (node.parent === node) {
        for (const s of synthetic) {
          const n = s.slice(1);
          if (!names.includes(n)) names.push(n);
        }
      }
      return ['.', '..', ...names];
    }),
    symlink: guard((parent: FsNode, newName: string, oldPath: string) =>
      k.symlink(oldPath, childPath(parent, newName)),
    ),
    readlink: guard((node: FsNode) => k.readlink(realPath(node))),
  };

  /**
   * A sequential read or write of a file a child shares: at the kernel's
   * offset (which the child may have moved), and Emscripten's position is
   * set to it (it adds what was done). pread/pwrite keep their position.
   */
  function byKernelOffset(stream: FsStream, position: number): boolean {
    if (!stream.seekable || stream.kfdUsers?.childShares !== true) return false;
    if (position !== stream.position || stream.kfd === undefined) return false;
    stream.position = k.seek(stream.kfd, 0, 1);
    return true;
  }

  const streamOps = {
    open: guard((stream: FsStream) => {
      if (FS.isDir(stream.node.mode)) {
        stream.kfd = -1;
        return;
      }
      const acc = stream.flags & O_ACCMODE;
      // O_CREAT passes through: the cached node may be stale (another process removed the file).
      stream.kfd = k.open(
        realPath(stream.node),
        stream.flags & O_CREAT_EM ? O.CREAT : 0,
        acc !== 1,
        acc !== 0,
        stream.flags & O_APPEND_EM ? FD_APPEND : 0,
      );
      stream.kfdUsers = { count: 1 };
      if (!FS.isFile(stream.node.mode)) stream.seekable = false;
    }),
    close: guard((stream: FsStream) => {
      if (stream.kfdUsers && --stream.kfdUsers.count > 0) return; // a dup still uses it
      if (stream.kfd !== undefined && stream.kfd >= 0) k.close(stream.kfd);
    }),
    // fstat of an open descriptor asks the kernel about that descriptor (pipes, unlinked files).
    getattr: guard((stream: FsStream) => {
      if (stream.kfd === undefined || stream.kfd < 0) return nodeOps.getattr(stream.node);
      return toStat(stream.node, k.fstat(stream.kfd));
    }),
    dup: (stream: FsStream): void => {
      // Emscripten's dup copies the stream object: the copy shares our kernel fd
      // (`os.dup2(fd, 1); os.close(fd)` keeps writing to the file through fd 1).
      if (stream.kfdUsers) stream.kfdUsers.count++;
      else stream.kfdUsers = { count: 2 };
    },
    read: guard(
      (stream: FsStream, buffer: Uint8Array, offset: number, length: number, position: number) => {
        if (stream.kfd === undefined || stream.kfd < 0) throw new FS.ErrnoError(31);
        const pos = byKernelOffset(stream, position) ? -1 : stream.seekable ? position : -1;
        return k.readInto(stream.kfd, buffer.subarray(offset, offset + length), pos);
      },
    ),
    write: guard(
      (stream: FsStream, buffer: Uint8Array, offset: number, length: number, position: number) => {
        if (stream.kfd === undefined || stream.kfd < 0) throw new FS.ErrnoError(31);
        const pos = byKernelOffset(stream, position) ? -1 : stream.seekable ? position : -1;
        // A copy: the kernel may keep the bytes, and the heap view moves on memory growth.
        return k.write(stream.kfd, buffer.slice(offset, offset + length), pos);
      },
    ),
    llseek: guard((stream: FsStream, offset: number, whence: number) => {
      const shared = stream.kfdUsers?.childShares === true && stream.kfd !== undefined;
      let pos = offset;
      if (whence === 1) pos += shared ? k.seek(stream.kfd as number, 0, 1) : stream.position;
      else if (whence === 2 && stream.kfd !== undefined && stream.kfd >= 0)
        pos += k.fstat(stream.kfd).size;
      if (pos < 0) throw new FS.ErrnoError(28);
      if (shared) k.seek(stream.kfd as number, pos, 0);
      return pos;
    }),
  };

  const SandFS = {
    mount: guard((mount: FsMount) => {
      void mount;
      return createNode(null, '/', k.lstat('/', true).mode);
    }),
  };

  /** Drop every cached SandFS node except roots and mount points (see the file comment). */
  let seenEpoch = k.epoch();
  function flushIfMoved(): void {
    const e = k.epoch();
    if (e === seenEpoch) return;
    seenEpoch = e;
    const table = FS.nameTable;
    for (let i = 0; i < table.length; i++) {
      let n = table[i];
      while (n) {
        const next = n.name_next;
        if (n.node_ops === nodeOps && n.parent !== n && !n.mounted) FS.hashRemoveNode(n);
        n = next;
      }
    }
  }

  return {
    streamOps,
    mountRoot(keep: readonly string[]): void {
      const kept = keep.map((d) => ({ d, node: FS.lookupPath(d).node }));
      for (const { d } of kept) synthetic.add(d);
      FS.root = null;
      FS.mount(SandFS, { root: '/' }, '/');
      for (const { d, node } of kept) FS.mount({ mount: () => node }, {}, d);
      const lookupNode = FS.lookupNode.bind(FS);
      FS.lookupNode = (parent: FsNode, name: string): FsNode => {
        flushIfMoved();
        return lookupNode(parent, name);
      };
      // The kernel checks permissions; Emscripten's own check only knows "any" bits.
      FS.ignorePermissions = true;
    },
  };
}
