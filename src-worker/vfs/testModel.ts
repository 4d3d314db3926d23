/**
 * A deliberately naive model of the VFS for property tests (not shipped code):
 * a Map from canonical absolute paths to nodes, copied whole on snapshot and
 * fork. It knows only what the property test drives: directories, files and
 * symlinks with absolute targets, modes and the three limits. Each operation
 * returns the errno the real VFS must raise, or null when it must succeed,
 * checking in the same order the real VFS does (the order is part of what
 * callers observe: a write that is both too big and in a missing directory).
 */
import { Errno } from '../base/errno.js';
import type { VfsLimits } from './types.js';

export type ModelNode =
  | { readonly kind: 'dir'; readonly mode: number }
  | { readonly kind: 'file'; readonly mode: number; readonly data: Uint8Array }
  | { readonly kind: 'symlink'; readonly target: string };

/** Symlinks followed in one resolution before ELOOP (the VFS's MAX_SYMLINKS). */
const MAX_LINKS = 40;

class ModelError extends Error {
  constructor(readonly errno: Errno) {
    super(Errno[errno]);
  }
}

const err = (errno: Errno): never => {
  throw new ModelError(errno);
};

const parts = (path: string): string[] => path.split('/').filter((p) => p.length > 0);
const join = (dir: string, name: string): string => (dir === '/' ? '/' + name : dir + '/' + name);

/** Where a parent-mode walk ends: the canonical directory and the final name. */
interface Walked {
  dir: string;
  name: string;
  links: number;
}

export class VfsModel {
  readonly nodes: Map<string, ModelNode>;

  constructor(
    readonly limits: VfsLimits,
    nodes?: Map<string, ModelNode>,
  ) {
    this.nodes = new Map(nodes);
  }

  clone(): VfsModel {
    return new VfsModel(this.limits, this.nodes);
  }

  usage(): { bytes: number; nodes: number } {
    let bytes = 0;
    for (const n of this.nodes.values()) {
      if (n.kind === 'file') bytes += n.data.length;
      if (n.kind === 'symlink') bytes += n.target.length;
    }
    return { bytes, nodes: this.nodes.size + 1 }; // + the root
  }

  private kindAt(path: string): ModelNode | undefined {
    return path === '/' ? { kind: 'dir', mode: 0o755 } : this.nodes.get(path);
  }

  /** Walk every component but the last (following symlinks), like the VFS's parent walk. */
  private walkParent(path: string, linksIn: number): Walked {
    const stack = parts(path).reverse();
    let cur = '/';
    let links = linksIn;
    for (;;) {
      const name = stack.pop() as string;
      if (this.kindAt(cur)?.kind !== 'dir') err(Errno.ENOTDIR);
      if (stack.length === 0) return { dir: cur, name, links };
      const next = this.nodes.get(join(cur, name));
      if (!next) return err(Errno.ENOENT);
      if (next.kind === 'symlink') {
        if (++links > MAX_LINKS) err(Errno.ELOOP);
        for (const p of parts(next.target).reverse()) stack.push(p);
        cur = '/';
        continue;
      }
      cur = join(cur, name);
    }
  }

  /** Parent walk, then follow a final symlink to where it points (open's loop). */
  private walkFollow(path: string): Walked {
    let w = this.walkParent(path, 0);
    for (;;) {
      const node = this.nodes.get(join(w.dir, w.name));
      if (node?.kind !== 'symlink') return w;
      if (w.links + 1 > MAX_LINKS) err(Errno.ELOOP);
      w = this.walkParent(node.target, w.links + 1);
    }
  }

  /** Canonical path of an existing node, final symlink followed. */
  private lookup(path: string): string {
    const w = this.walkFollow(path);
    const p = join(w.dir, w.name);
    if (!this.nodes.has(p)) err(Errno.ENOENT);
    return p;
  }

  private bytes(): number {
    return this.usage().bytes;
  }

  private allocCheck(): void {
    if (this.usage().nodes + 1 > this.limits.maxNodes) err(Errno.EDQUOT);
  }

  /** Run `fn`; its ModelError becomes the errno the VFS must throw. */
  static expect(fn: () => void): Errno | null {
    try {
      fn();
      return null;
    } catch (e) {
      if (e instanceof ModelError) return e.errno;
      throw e;
    }
  }

  mkdir(path: string, mode: number): void {
    const w = this.walkParent(path, 0);
    const p = join(w.dir, w.name);
    if (this.nodes.has(p)) err(Errno.EEXIST);
    this.allocCheck();
    // A directory made inside a setgid directory inherits the bit.
    const parent = this.kindAt(w.dir);
    const setgid = parent?.kind === 'dir' ? parent.mode & 0o2000 : 0;
    this.nodes.set(p, { kind: 'dir', mode: (mode & 0o7777) | setgid });
  }

  writeFile(path: string, data: Uint8Array): void {
    if (data.length > this.limits.maxFileSize) err(Errno.EFBIG);
    if (this.bytes() + data.length > this.limits.maxBytes) {
      let old = 0;
      try {
        const n = this.nodes.get(this.lookup(path));
        if (n?.kind === 'file') old = n.data.length;
      } catch (e) {
        if (!(e instanceof ModelError)) throw e;
      }
      if (this.bytes() - old + data.length > this.limits.maxBytes) err(Errno.ENOSPC);
    }
    const w = this.walkFollow(path);
    const p = join(w.dir, w.name);
    const node = this.nodes.get(p);
    if (node?.kind === 'dir') err(Errno.EISDIR);
    if (!node) this.allocCheck();
    const mode = node?.kind === 'file' ? node.mode : 0o644;
    this.nodes.set(p, { kind: 'file', mode, data: data.slice() });
  }

  /** Open for writing without create (EISDIR for a directory), then apply `next` to the body. */
  private rewrite(path: string, next: (old: Uint8Array) => Uint8Array): void {
    const p = this.lookup(path);
    const node = this.nodes.get(p) as ModelNode;
    if (node.kind !== 'file') return err(Errno.EISDIR);
    const data = next(node.data);
    if (data.length > this.limits.maxFileSize) err(Errno.EFBIG);
    const growth = Math.max(0, data.length - node.data.length);
    if (growth > 0 && this.bytes() + growth > this.limits.maxBytes) err(Errno.ENOSPC);
    this.nodes.set(p, { ...node, data });
  }

  append(path: string, data: Uint8Array): void {
    this.rewrite(path, (old) => {
      if (data.length === 0) return old;
      const out = new Uint8Array(old.length + data.length);
      out.set(old);
      out.set(data, old.length);
      return out;
    });
  }

  truncate(path: string, size: number): void {
    this.rewrite(path, (old) => {
      const out = new Uint8Array(size);
      out.set(old.subarray(0, size));
      return out;
    });
  }

  unlink(path: string): void {
    const w = this.walkParent(path, 0);
    const p = join(w.dir, w.name);
    const node = this.nodes.get(p);
    if (!node) return err(Errno.ENOENT);
    if (node.kind === 'dir') err(Errno.EISDIR);
    this.nodes.delete(p);
  }

  rmdir(path: string): void {
    const w = this.walkParent(path, 0);
    const p = join(w.dir, w.name);
    const node = this.nodes.get(p);
    if (!node) return err(Errno.ENOENT);
    if (node.kind !== 'dir') err(Errno.ENOTDIR);
    if (this.children(p).length > 0) err(Errno.ENOTEMPTY);
    this.nodes.delete(p);
  }

  symlink(target: string, path: string): void {
    const w = this.walkParent(path, 0);
    const p = join(w.dir, w.name);
    if (this.nodes.has(p)) err(Errno.EEXIST);
    if (this.bytes() + target.length > this.limits.maxBytes) err(Errno.ENOSPC);
    this.allocCheck();
    this.nodes.set(p, { kind: 'symlink', target });
  }

  chmod(path: string, mode: number): void {
    const p = this.lookup(path);
    const node = this.nodes.get(p) as ModelNode;
    if (node.kind !== 'symlink') this.nodes.set(p, { ...node, mode: mode & 0o7777 });
  }

  rename(from: string, to: string): void {
    const a = this.walkParent(from, 0);
    const b = this.walkParent(to, 0);
    const src = join(a.dir, a.name);
    const dst = join(b.dir, b.name);
    const s = this.nodes.get(src);
    if (!s) return err(Errno.ENOENT);
    const d = this.nodes.get(dst);
    if (src === dst) return;
    if (s.kind === 'dir') {
      if (d && d.kind !== 'dir') err(Errno.ENOTDIR);
      if (d && this.children(dst).length > 0) err(Errno.ENOTEMPTY);
      if (b.dir === src || b.dir.startsWith(src + '/')) err(Errno.EINVAL);
    } else if (d?.kind === 'dir') {
      err(Errno.EISDIR);
    }
    this.nodes.delete(dst);
    const moved: [string, ModelNode][] = [];
    for (const [p, n] of this.nodes) {
      if (p === src || p.startsWith(src + '/')) moved.push([p, n]);
    }
    for (const [p] of moved) this.nodes.delete(p);
    for (const [p, n] of moved) this.nodes.set(dst + p.slice(src.length), n);
  }

  /** Direct children's paths of a directory. */
  children(dir: string): string[] {
    const prefix = dir === '/' ? '/' : dir + '/';
    return [...this.nodes.keys()].filter(
      (p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'),
    );
  }
}
