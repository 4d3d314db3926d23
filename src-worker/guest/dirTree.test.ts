/**
 * Directory opens served from listings the glue holds: walks must see the
 * tree exactly as the kernel would (changes made during the walk included,
 * permissions enforced) while making a few round trips instead of one per
 * directory; likewise the extended stat the glue answers from the WASI
 * stat before it. The end-to-end cases need the built coreutils.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Reply } from '../channel/server.js';
import type { Kernel } from '../kernel/kernel.js';
import { Sys } from '../base/syscalls.js';
import type { Process } from '../proc/process.js';
import { defaultProgramsDir, Sandbox } from '../sandbox/sandbox.js';
import { USER_GID, USER_UID } from '../vfs/index.js';
import { walkKey } from './dirTree.js';

const enc = new TextEncoder();
const built = existsSync(join(defaultProgramsDir(), 'coreutils.wasm'));

describe('walkKey', () => {
  it('joins plain names and refuses what the kernel resolves specially', () => {
    expect(walkKey(enc.encode('home//user/./w/'))).toBe('home/user/w');
    expect(walkKey(enc.encode('.'))).toBe('');
    expect(walkKey(enc.encode('./a/.b/..c/'))).toBe('a/.b/..c');
    expect(walkKey(enc.encode('a/.hidden/...'))).toBe('a/.hidden/...');
    expect(walkKey(enc.encode('/a'))).toBe('a');
    expect(walkKey(enc.encode('home/user/../w'))).toBeUndefined();
    expect(walkKey(enc.encode('proc/1'))).toBeUndefined();
    expect(walkKey(enc.encode('dev/fd'))).toBeUndefined();
    expect(walkKey(new Uint8Array([0x61, 0xff, 0x2f, 0x62]))).toBe('a\xff/b');
  });
});

describe.skipIf(!built)('directory walks served from held listings', () => {
  let sb: Sandbox;
  let k: Kernel;
  const calls = new Map<Sys, number>();
  const home = '/home/user/walk';
  /** Every path `find t` prints, in any order. */
  const tree: string[] = ['t'];

  beforeAll(async () => {
    sb = await Sandbox.create({ limits: { wallTimeMs: 60_000 } });
    k = sb.kernelForTests;
    // Count syscalls by op: the dispatcher is looked up per call.
    const handle = k.handle.bind(k);
    k.handle = (p: Process, op: number, ...rest: [number[], Uint8Array, Uint8Array?]) => {
      calls.set(op, (calls.get(op) ?? 0) + 1);
      return handle(p, op, ...rest) as Reply | Promise<Reply>;
    };
    const v = k.vfs;
    for (let i = 0; i < 12; i++) {
      tree.push(`t/a${i}`);
      for (let j = 0; j < 15; j++) {
        const d = `t/a${i}/b${j}`;
        v.mkdirp(`${home}/${d}`);
        v.writeFile(`${home}/${d}/f.txt`, enc.encode(`${i} ${j}\n`));
        tree.push(d, `${d}/f.txt`);
      }
    }
    v.chown(home, USER_UID, USER_GID);
    for (const d of tree) if (!d.endsWith('.txt')) v.chown(`${home}/${d}`, USER_UID, USER_GID);
  });

  afterAll(async () => {
    await sb.destroy();
  });

  async function run(script: string): Promise<{ out: string[]; err: string; code: number }> {
    calls.clear();
    const r = await sb.run(script, { cwd: home });
    return { out: r.stdout.split('\n').filter((l) => l !== ''), err: r.stderr, code: r.status };
  }

  it('find sees the whole tree in a handful of round trips', async () => {
    const r = await run('find t');
    expect(r.err).toBe('');
    expect([...r.out].sort()).toEqual([...tree].sort());
    // 193 directories: without held listings that is 193 OPENs.
    expect(calls.get(Sys.OPEN) ?? 0).toBeLessThan(15);
  });

  it('a walk sees what it changed itself on the way', async () => {
    // Each directory gets a file just before the walk lists it.
    const r = await run('find t -type d -exec touch {}/new \\; -o -name new -print | wc -l');
    expect(r.err).toBe('');
    expect(r.out).toEqual(['193']);
    const again = await run('find t -name new -delete; find t | wc -l');
    expect(again.out).toEqual([String(tree.length)]);
  });

  it("permissions are the kernel's: what may not be listed or searched is reported", async () => {
    const r = await run(
      'chmod 000 t/a3/b7; chmod 600 t/a5; find t | wc -l; chmod 755 t/a3/b7 t/a5',
    );
    // a5 lists (read) but cannot be entered (no search): each child fails.
    const a5 = Array.from({ length: 15 }, (_, j) => `b${j}`).sort();
    expect(r.err).toBe(
      ['t/a3/b7', ...a5.map((b) => `t/a5/${b}`)]
        .map((d) => `find: '${d}': Permission denied\n`)
        .join(''),
    );
    expect(r.out).toEqual([String(tree.length - 1 - 15)]);
  });

  it('an extended stat right after the WASI stat of the same path needs no call', async () => {
    const r = await run(
      'chmod 700 t/a1/b1; du -a t | wc -l; ls -ln t/a1 | sed -n 3p; chmod 755 t/a1/b1',
    );
    expect(r.err).toBe('');
    expect(r.out[0]).toBe(String(tree.length));
    // Modes and owners come through the memo: a stale one would show 755.
    expect(r.out[1]).toMatch(/^drwx------ 2 1000 1000 .* b1$/);
    expect(calls.get(Sys.PATH_STAT_EXT) ?? 0).toBeLessThan(10);
  });

  it('descriptors the kernel never saw work for fd calls (tar walks through them)', async () => {
    // tar opens each directory and reads it through its descriptor (ls -R no longer does).
    const r = await run("tar cf - t | tar tf - | grep -c '/f.txt$'");
    expect(r.err).toBe('');
    expect(r.out).toEqual(['180']);
    expect(calls.get(Sys.ADOPT_DIRS) ?? 0).toBeGreaterThan(0);
  });
});
