/** WASI preview1 semantics through real wasm fixtures and our host. */
import { cpus } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../proc/node/workerPool.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { fixtureProgramsDir } from '../sandbox/testPrograms.js';
import { runProgram } from '../sandbox/testUtil.js';

let sb: Sandbox;
const fs = (...args: string[]) =>
  runProgram(sb, '/usr/bin/fixture-fs', ['fs', ...args], { cwd: '/tmp' });
const wasi = (...args: string[]) =>
  runProgram(sb, '/usr/bin/fixture-wasi', ['wasi', ...args], { cwd: '/tmp' });

beforeAll(async () => {
  sb = await Sandbox.create({ programsDir: fixtureProgramsDir() });
  await sb.warm();
});

afterAll(async () => {
  await sb.destroy();
  expect(await WorkerPool.drained()).toBe(true);
});

describe('fd_readdir', () => {
  it('resumes from cookies across many small reads', async () => {
    await sb.mkdir('/tmp/many');
    const names: string[] = [];
    for (let i = 0; i < 40; i++) {
      const n = `file-with-a-longish-name-${String(i).padStart(2, '0')}`;
      names.push(n);
      await sb.writeFile(`/tmp/many/${n}`, String(i));
    }
    const r = await wasi('readdir', '/tmp/many', '100');
    const [list, calls] = r.stdout.trim().split('\n');
    expect(list?.split(' ')).toEqual(['.', '..', ...names]);
    expect(calls).toBe('calls>1 true');
  });
});

describe('path_open flags', () => {
  it('O_APPEND, O_TRUNC, O_EXCL, O_DIRECTORY', async () => {
    const r = await fs(
      'write',
      'f',
      'abc',
      'append',
      'f',
      'def',
      'read',
      'f',
      'write',
      'f',
      'x',
      'read',
      'f',
      'excl',
      'f',
      'excl',
      'g',
      'ls',
      'f',
    );
    // write truncates; excl on existing is EEXIST (20); ls of a file is ENOTDIR (54)
    expect(r.stdout).toBe('abcdef\nx\nerr excl 20\nerr ls 54\n');
  });

  it('O_NONBLOCK on an empty pipe gives EAGAIN', async () => {
    const p = await sb.spawn('/usr/bin/fixture-wasi', ['wasi', 'nonblock'], {
      stdin: 'pipe',
      stdout: (d) => (out += new TextDecoder().decode(d)),
    });
    let out = '';
    const { status } = await p.wait();
    p.stdin?.close();
    expect(status).toBe(0);
    expect(out).toBe('read errno 6 n 0\n');
  });
});

describe('descriptors', () => {
  it('pread/pwrite do not move the offset', async () => {
    await sb.writeFile('/tmp/pp', '0123456789');
    const r = await wasi('pread', '/tmp/pp');
    expect(r.stdout).toBe('1XYZ tell=0\n');
    expect(new TextDecoder().decode(await sb.readFile('/tmp/pp'))).toBe('01XYZ56789');
  });

  it('fd_renumber moves a descriptor and closes the old number', async () => {
    const r = await wasi('renumber', '/tmp/renum');
    expect(new TextDecoder().decode(await sb.readFile('/tmp/renum'))).toBe('via renumber\n');
    expect(r.stderr).toBe('old fd write errno 8\n');
  });
});

describe('sizes and times', () => {
  it('fd_filestat_set_size/times, path_filestat_set_times, fd_allocate, fd_seek', async () => {
    await sb.writeFile('/tmp/t', 'hello world, this is long');
    const r = await wasi('times', '/tmp/t');
    expect(r.stdout).toBe(
      'size 10\nallocated 20\nseek end-4 16\nseek before start errno 28\natim_s 1000000000 mtim_s 1500000000\nbad flags errno 28\nmtime now true\n',
    );
    const st = await sb.stat('/tmp/t');
    expect(st.size).toBe(20);
  });
});

describe('links and paths', () => {
  it('hard links, symlinks, readlink, rename', async () => {
    const r = await fs(
      'write',
      'orig',
      'data',
      'link',
      'orig',
      'hard',
      'symlink',
      'orig',
      'soft',
      'readlink',
      'soft',
      'read',
      'soft',
      'mv',
      'orig',
      'renamed',
      'read',
      'hard',
      'stat',
      'soft',
      'lstat',
      'soft',
    );
    expect(r.stdout).toBe('orig\ndata\ndata\nerr stat 44\nsymlink 4\n');
  });

  it('symlink loops give ELOOP', async () => {
    const r = await fs('symlink', 'loop2', 'loop1', 'symlink', 'loop1', 'loop2', 'read', 'loop1');
    expect(r.stdout).toBe('err read 32\n');
  });

  it('paths cannot climb out of the root', async () => {
    await sb.writeFile('/top.txt', 'top');
    const r = await fs(
      'read',
      '/../../top.txt',
      'symlink',
      '/..',
      'up',
      'read',
      'up/top.txt',
      'symlink',
      '../../../..',
      'up2',
      'read',
      'up2/top.txt',
    );
    expect(r.stdout).toBe('top\ntop\ntop\n');
    // Raw path_open relative to the root preopen with a long '..' chain stays inside.
    const w = await wasi('open', '../'.repeat(300) + 'top.txt');
    expect(w.stdout).toBe('open errno 0\n');
  });

  it('a 1 MB path gives ENAMETOOLONG', async () => {
    const r = await wasi('open', 'a/'.repeat(500_000));
    expect(r.stdout).toBe('open errno 37\n');
  });
});

describe('poll_oneoff, proc_exit, proc_raise', () => {
  it('really sleeps on a clock', async () => {
    const r = await wasi('poll', '60');
    expect(r.stdout).toBe('event clock waited>=60 true\n');
    expect(r.ms).toBeGreaterThanOrEqual(60);
  });

  it('wakes on fd readiness before the clock', async () => {
    let out = '';
    const p = await sb.spawn('/usr/bin/fixture-wasi', ['wasi', 'pollfd', '5000'], {
      stdin: 'pipe',
      stdout: (d) => (out += new TextDecoder().decode(d)),
    });
    const t0 = performance.now();
    setTimeout(() => void p.stdin?.write('hello'), 30);
    await p.wait();
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(out).toBe('event fd waited>=5000 false\nnbytes 5\n');
  });

  it('proc_exit sets the status; proc_raise delivers a signal', async () => {
    expect((await wasi('exit', '7')).status).toBe(7);
    const r = await wasi('raise', '15');
    expect(r.signal).toBe(15);
    expect(r.status).toBe(143);
    expect(r.stdout).toBe('');
  });

  it('sleep through poll_oneoff works from std', async () => {
    const r = await runProgram(sb, '/usr/bin/fixture-sleep', ['sleep', '20']);
    expect(r.stdout).toBe('woke\n');
    expect(r.ms).toBeGreaterThanOrEqual(20);
  });
});

describe('/dev and /proc', () => {
  it('serves devices', async () => {
    const r = await fs('read', '/dev/null', 'write', '/dev/null', 'x', 'stat', '/dev/zero');
    expect(r.stdout).toBe('\nother 0\n');
    const cat = await runProgram(sb, '/usr/bin/fixture-cat', ['cat', '/dev/stdin'], {
      stdin: 'via dev stdin',
    });
    expect(cat.stdout).toBe('via dev stdin');
    const fd = await runProgram(sb, '/usr/bin/fixture-cat', ['cat', '/dev/fd/0'], {
      stdin: 'via fd 0',
    });
    expect(fd.stdout).toBe('via fd 0');
    const ls = await fs('ls', '/dev/fd');
    // stdio and the root preopen (taken when the listing is opened).
    expect(ls.stdout).toBe('0 1 2 3\n');
  });

  it('generates /proc files', async () => {
    const r = await runProgram(
      sb,
      '/usr/bin/fixture-cat',
      ['cat', '/proc/self/cmdline', '/proc/version', '/proc/self/status'],
      { cwd: '/tmp' },
    );
    expect(r.stdout).toContain('cat\0/proc/self/cmdline\0');
    expect(r.stdout).toContain('Sandglass');
    expect(r.stdout).toMatch(/Pid:\t\d+/);
    const l = await fs('readlink', '/proc/self/cwd', 'ls', '/proc');
    expect(l.stdout).toMatch(/^\/tmp\n(\d+ )+cpuinfo meminfo self uptime version\n$/);
  });

  it('shows the processor count in /proc/cpuinfo, not the host CPU', async () => {
    const r = await runProgram(sb, '/usr/bin/fixture-cat', ['cat', '/proc/cpuinfo']);
    expect(r.stdout.match(/^processor\t: \d+$/gm)).toHaveLength(Math.max(1, cpus().length));
    for (const c of cpus()) expect(r.stdout).not.toContain(c.model);
  });
});
