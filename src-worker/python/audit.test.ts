/**
 * Points of the Python issue (#16) that no other test pins down, each as
 * CPython on Linux behaves: stdout to a pipe is one write, not one per line;
 * a read-only import stays read-only for Python as for the shell; the
 * sandbox's file limits are OSErrors with Linux's errno; a file another
 * process renames is seen at once; sqlite3 keeps its database in a sandbox
 * file; `time.sleep` costs no CPU; `timeout` and `kill -9` end python3 like
 * any process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sys } from '../base/syscalls.js';
import { handlers } from '../kernel/handlers/index.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { pythonAvailable } from '../programs/python.js';

const LONG = 600_000;
const opts = { timeoutMs: 300_000 };

describe.skipIf(!pythonAvailable())('python3: the issue checklist, end to end', () => {
  let sb: Sandbox;
  let hostDir: string;

  beforeAll(async () => {
    hostDir = mkdtempSync(join(tmpdir(), 'sg-py-audit-'));
    writeFileSync(join(hostDir, 'a.txt'), 'host data\n');
    sb = await Sandbox.create({ vfsLimits: { maxFileSize: 1 << 20, maxBytes: 64 << 20 } });
    await sb.importHostDir(hostDir, '/data', { readOnly: true });
  });

  afterAll(async () => {
    await sb.destroy();
    rmSync(hostDir, { recursive: true, force: true });
  });

  it(
    'writes stdout to a pipe in one write (with -u, a write per print)',
    async () => {
      // Count the WRITE syscalls on fd 1 per process.
      const writes = new Map<number, number>();
      const write = handlers[Sys.WRITE];
      if (!write) throw new Error('no WRITE handler');
      handlers[Sys.WRITE] = (k, p, args, payload) => {
        if (args[0] === 1) writes.set(p.pid, (writes.get(p.pid) ?? 0) + 1);
        return write(k, p, args, payload);
      };
      try {
        const prog =
          'import os, sys; print(os.getpid(), file=sys.stderr); [print(i) for i in range(1000)]';
        const r = await sb.run(
          `python3 -c '${prog}' 2>/tmp/pid1 | wc -l; python3 -u -c '${prog}' 2>/tmp/pid2 | wc -l; cat /tmp/pid1 /tmp/pid2`,
          opts,
        );
        const [lines1, lines2, pid1, pid2] = r.stdout.trim().split('\n').map(Number);
        expect([lines1, lines2]).toEqual([1000, 1000]);
        expect(writes.get(pid1 as number)).toBe(1);
        // -u: unbuffered, as CPython (each print is its own writes).
        expect(writes.get(pid2 as number)).toBeGreaterThanOrEqual(1000);
      } finally {
        handlers[Sys.WRITE] = write;
      }
    },
    LONG,
  );

  it(
    'keeps a read-only import read-only and reports limits with the errno and text Linux gives',
    async () => {
      await sb.writeFile(
        '/tmp/limits.py',
        [
          'import errno, os',
          'def attempt(label, f):',
          '    try:',
          '        f()',
          '        print(label, "ok")',
          '    except OSError as e:',
          '        print(label, type(e).__name__, errno.errorcode[e.errno], e.strerror)',
          'attempt("ro-write", lambda: open("/data/a.txt", "w").write("x"))',
          'attempt("ro-append", lambda: open("/data/a.txt", "a"))',
          'attempt("ro-create", lambda: open("/data/new.txt", "w"))',
          'attempt("ro-remove", lambda: os.remove("/data/a.txt"))',
          'attempt("ro-rename", lambda: os.rename("/data/a.txt", "/data/b.txt"))',
          'attempt("ro-mkdir", lambda: os.mkdir("/data/d"))',
          'print(open("/data/a.txt").read().strip())',
          'def big():',
          '    with open("/tmp/big", "wb") as f:',
          '        f.write(b"x" * (2 << 20))',
          'attempt("file-size", big)',
          'def unbuffered():',
          '    with open("/tmp/big2", "wb", buffering=0) as f:',
          '        f.write(b"x" * (1 << 20))',
          '        f.write(b"y")',
          'attempt("file-size-past", unbuffered)',
          'print("size", os.path.getsize("/tmp/big2"))',
        ].join('\n'),
      );
      const r = await sb.run(
        'python3 /tmp/limits.py; echo x > /data/a.txt; rm /data/a.txt; cat /data/a.txt',
        opts,
      );
      expect(r.stdout).toBe(
        [
          'ro-write OSError EROFS Read-only file system',
          'ro-append OSError EROFS Read-only file system',
          'ro-create OSError EROFS Read-only file system',
          'ro-remove OSError EROFS Read-only file system',
          'ro-rename OSError EROFS Read-only file system',
          'ro-mkdir OSError EROFS Read-only file system',
          'host data',
          'file-size OSError EFBIG File too large',
          'file-size-past OSError EFBIG File too large',
          `size ${1 << 20}`,
          'host data',
          '',
        ].join('\n'),
      );
      // As on a read-only mount; the shell is told the same.
      expect(r.stderr).toMatch(/a\.txt: Read-only file system/);
    },
    LONG,
  );

  it(
    'sees files other processes create, rename and delete at once, and keeps sqlite3 in a sandbox file',
    async () => {
      await sb.writeFile(
        '/tmp/seen.py',
        [
          'import os, sqlite3, subprocess',
          'open("/tmp/r1", "w").write("one\\n")',
          'print(open("/tmp/r1").read().strip(), os.path.exists("/tmp/r1"))',
          'subprocess.run(["mv", "/tmp/r1", "/tmp/r2"], check=True)',
          'print(os.path.exists("/tmp/r1"), open("/tmp/r2").read().strip())',
          'subprocess.run("rm /tmp/r2; echo two > /tmp/r1", shell=True, check=True)',
          'print(os.path.exists("/tmp/r2"), open("/tmp/r1").read().strip())',
          'db = sqlite3.connect("/tmp/app.db")',
          'db.execute("create table t (k text primary key, v integer)")',
          'db.executemany("insert into t values (?, ?)", [("a", 1), ("b", 2)])',
          'db.commit(); db.close()',
        ].join('\n'),
      );
      const r = await sb.run(
        [
          'python3 /tmp/seen.py',
          'head -c 15 /tmp/app.db; echo',
          `python3 -c 'import sqlite3; print(sqlite3.connect("/tmp/app.db").execute("select sum(v) from t").fetchone())'`,
        ].join('\n'),
        opts,
      );
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(
        ['one True', 'False one', 'False two', 'SQLite format 3', '(3,)', ''].join('\n'),
      );
    },
    LONG,
  );

  it(
    'sleeps without CPU',
    async () => {
      // The interpreter runs in a worker thread of this process: its CPU is ours.
      const cpu = async (cmd: string): Promise<number> => {
        const before = process.cpuUsage();
        const r = await sb.run(cmd, opts);
        expect(r.status).toBe(0);
        const d = process.cpuUsage(before);
        return (d.user + d.system) / 1000;
      };
      const idle = await cpu('python3 -c "pass"');
      const slept = await cpu('python3 -c "import time; time.sleep(3)"');
      expect(slept - idle).toBeLessThan(1000);
    },
    LONG,
  );

  it(
    'ends under timeout and kill -9 like any process, and the next one runs',
    async () => {
      const r = await sb.run(
        [
          'timeout 2 python3 -c "while True: pass"; echo "timeout $?"',
          'timeout -s INT 2 python3 -c "import time; time.sleep(30)" 2>/dev/null; echo "int $?"',
          'python3 -c "import time; time.sleep(30)" & sleep 1; kill -9 $!; wait $!; echo "kill $?"',
          'python3 -c "print(6 * 7)"',
        ].join('\n'),
        opts,
      );
      expect(r.stdout).toBe('timeout 124\nint 124\nkill 137\n42\n');
    },
    LONG,
  );
});
