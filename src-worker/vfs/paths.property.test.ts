/**
 * Property tests of path handling: `.`/`..`/symlink resolution is canonical
 * and never climbs above the root, hostile paths get a KernelError and
 * nothing else, and host export/import never produce a way out of the tree.
 */
import fs from 'node:fs';
import os from 'node:os';
import nodePath from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelError } from '../base/errno.js';
import { Vfs } from './index.js';
import { exportTree, importHostDir } from './node/index.js';
import { text } from './testUtil.js';

/** A fixed tree: directories a, a/b, a/b/c, a file, and symlinks that try to climb out. */
function tree(): Vfs {
  const vfs = Vfs.create();
  vfs.mkdirp('/a/b/c');
  vfs.writeFile('/a/f', text('f'));
  vfs.symlink('../../../../..', '/a/b/up');
  vfs.symlink('/a/b', '/abs');
  vfs.symlink('..', '/a/b/c/parent');
  vfs.symlink('loop', '/a/loop');
  return vfs;
}

const component = fc.constantFrom(
  'a',
  'b',
  'c',
  'f',
  'up',
  'abs',
  'parent',
  'loop',
  '.',
  '..',
  '',
  'zz',
);
const relPath = fc.array(component, { maxLength: 10 }).map((p) => p.join('/'));
const anyPath = fc.tuple(fc.boolean(), relPath).map(([abs, p]) => (abs ? '/' + p : p || '.'));

const DIRS = new Set(['/', '/a', '/a/b', '/a/b/c']);

/**
 * The model of a symlink-free walk: `..` at the root stays at the root, and
 * every named component must be an existing directory (else null).
 */
function lexicalWalk(path: string): string | null {
  const out: string[] = [];
  for (const p of path.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
    if (!DIRS.has('/' + out.join('/'))) return null;
  }
  return '/' + out.join('/');
}

/** Run `fn`; a KernelError is a clean refusal, anything else is a crash the test reports. */
function clean<T>(fn: () => T): T | KernelError {
  try {
    return fn();
  } catch (e) {
    if (e instanceof KernelError) return e;
    throw e;
  }
}

describe('path resolution (fast-check)', () => {
  const vfs = tree();

  it('realpath is canonical, below the root, and names the same node', () => {
    fc.assert(
      fc.property(anyPath, fc.constantFrom('/', '/a', '/a/b/c'), (path, cwd) => {
        const real = clean(() => vfs.realpath(path, { cwd }));
        if (real instanceof KernelError) return;
        expect(real.startsWith('/')).toBe(true);
        const parts = real.split('/').slice(1);
        if (real !== '/')
          expect(parts.every((p) => p !== '' && p !== '.' && p !== '..')).toBe(true);
        expect(vfs.resolve(real)).toBe(vfs.resolve(path, { cwd }));
        // The walk from the root through the canonical path never meets a symlink.
        expect(vfs.realpath(real)).toBe(real);
      }),
      { numRuns: 3000 },
    );
  });

  it('without symlinks, resolution is lexical and `..` stops at the root', () => {
    const plain = fc
      .array(fc.constantFrom('a', 'b', 'c', '.', '..', ''), { maxLength: 12 })
      .map((p) => '/' + p.join('/'));
    fc.assert(
      fc.property(plain, (path) => {
        const real = clean(() => vfs.realpath(path));
        const want = lexicalWalk(path);
        expect(real instanceof KernelError ? null : real).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });

  it('hostile paths get a KernelError from every path method, never a crash', () => {
    const hostile = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 64 }),
      fc.uint8Array({ maxLength: 300 }).map((b) => String.fromCharCode(...b)),
      fc.nat(5000).map((n) => '/' + 'x'.repeat(n)),
      fc.nat(3000).map((n) => '../'.repeat(n)),
      fc.constantFrom('', '\0', '/\0/', '/a/\u0100', '/a/\uFFFF', '//..//..//a'),
    );
    fc.assert(
      fc.property(hostile, (path) => {
        const v = tree();
        clean(() => v.stat(path));
        clean(() => v.lstat(path));
        clean(() => v.realpath(path));
        clean(() => v.readlink(path));
        clean(() => v.readdir(path));
        clean(() => v.writeFile(path, text('x')));
        clean(() => v.mkdir(path));
        clean(() => v.symlink(path, '/s'));
        clean(() => v.symlink('/a', path));
        clean(() => v.rename('/a/f', path));
        clean(() => v.rename(path, '/z'));
        clean(() => v.unlink(path));
        clean(() => v.rmdir(path));
        clean(() => v.chmod(path, 0o700));
        clean(() => v.mkdirp(path));
        // The fixed tree is still whole unless the hostile path named part of it.
        expect(v.stat('/').kind).toBe('dir');
      }),
      { numRuns: 150 },
    );
  }, 90_000);
});

describe('host export and import never lead out of the tree (fast-check)', () => {
  const scratch = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'sg-paths-prop-'));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
  let n = 0;

  const target = fc.oneof(
    fc
      .array(fc.constantFrom('..', '.', 'd', 'e', 'x'), { minLength: 1, maxLength: 6 })
      .map((p) => p.join('/')),
    fc.constantFrom('/etc/passwd', '/', '//..', '../../../../../../etc'),
  );
  const where = fc.constantFrom('/t/l', '/t/d/l', '/t/d/e/l');

  it('every exported symlink resolves inside the export directory', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(target, where), { maxLength: 8 }), async (links) => {
        const vfs = Vfs.create();
        vfs.mkdirp('/t/d/e');
        links.forEach(([t, at], i) => clean(() => vfs.symlink(t, `${at}${String(i)}`)));
        const out = nodePath.join(scratch, `export-${String(n++)}`);
        await exportTree(vfs, '/t', out);
        const root = fs.realpathSync(out);
        for (const ent of fs.readdirSync(out, { recursive: true, withFileTypes: true })) {
          if (!ent.isSymbolicLink()) continue;
          const link = nodePath.join(ent.parentPath, ent.name);
          const resolved = nodePath.resolve(nodePath.dirname(link), fs.readlinkSync(link));
          expect(resolved === root || resolved.startsWith(root + nodePath.sep), link).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('imported host symlinks resolve in the VFS, never to the host', async () => {
    const sentinel = nodePath.join(scratch, 'sentinel');
    fs.writeFileSync(sentinel, 'HOST SECRET');
    await fc.assert(
      fc.asyncProperty(fc.array(target, { minLength: 1, maxLength: 6 }), async (targets) => {
        const dir = nodePath.join(scratch, `import-${String(n++)}`);
        fs.mkdirSync(nodePath.join(dir, 'd', 'e'), { recursive: true });
        targets.forEach((t, i) => fs.symlinkSync(t, nodePath.join(dir, 'd', `l${String(i)}`)));
        fs.symlinkSync(sentinel, nodePath.join(dir, 'd', 'sentinel'));
        const vfs = Vfs.create();
        vfs.mkdir('/in');
        await importHostDir(vfs, dir, '/in');
        for (const e of vfs.readdir('/in/d')) {
          const got = clean(() => vfs.readFile('/in/d/' + e.name));
          if (got instanceof KernelError) continue;
          expect(new TextDecoder().decode(got)).not.toContain('HOST SECRET');
        }
      }),
      { numRuns: 40 },
    );
  });
});
