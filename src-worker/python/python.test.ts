/**
 * python3 as a sandbox process, end to end through a real Sandbox and its
 * shell: command line forms, exit statuses, stdio as the process's
 * descriptors, files through the kernel, a fresh interpreter per process,
 * and a differential run of difftest/*.py against the host's python3.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../sandbox/sandbox.js';
import { firstDifference } from '../base/firstDifference.js';
import { pythonAvailable } from '../programs/python.js';
import { PythonPool } from './node/pythonPool.js';

const LONG = 600_000;
const opts = { timeoutMs: 300_000 };

describe.skipIf(!pythonAvailable())('python3 in a sandbox', () => {
  let sb: Sandbox;

  beforeAll(async () => {
    sb = await Sandbox.create();
  });

  afterAll(async () => {
    await sb.destroy();
  });

  it(
    'runs -c, -V, scripts with arguments, stdin and -m, with CPython exit statuses',
    async () => {
      await sb.writeFile(
        '/tmp/prog.py',
        '#!/usr/bin/env python3\nimport os, sys\nprint("args", sys.argv, os.getcwd(), os.environ["FOO"])\nsys.exit(int(sys.argv[1]))\n',
        { mode: 0o755 },
      );
      await sb.writeFile('/tmp/data.json', '{"b": [1, 2], "a": null}');
      const r = await sb.run(
        [
          'cd /tmp',
          'python3 -V; echo "V $?"',
          'python -c "print(40 + 2)"; echo "c $?"',
          'FOO=bar python3 prog.py 5 x; echo "script $?"',
          'FOO=baz ./prog.py 0; echo "shebang $?"',
          'python3 - a b <<EOF\nimport sys\nprint("heredoc", sys.argv)\nEOF',
          'python3 -m json.tool data.json; echo "json.tool $?"',
          'python3 -c "raise SystemExit(\'bye\')"; echo "msg $?"',
          'python3 -c "import os; os._exit(7)"; echo "_exit $?"',
          'python3 nosuch.py; echo "missing $?"',
          'python3 -Z; echo "badopt $?"',
        ].join('\n'),
        opts,
      );
      expect(r.stdout).toBe(
        [
          'Python 3.14.2',
          'V 0',
          '42',
          'c 0',
          "args ['prog.py', '5', 'x'] /tmp bar",
          'script 5',
          "args ['./prog.py', '0'] /tmp baz",
          'shebang 0',
          "heredoc ['-', 'a', 'b']",
          '{',
          '    "b": [',
          '        1,',
          '        2',
          '    ],',
          '    "a": null',
          '}',
          'json.tool 0',
          'msg 1',
          '_exit 7',
          'missing 2',
          'badopt 2',
          '',
        ].join('\n'),
      );
      expect(r.stderr).toContain('bye\n');
      expect(r.stderr).toContain("python3: can't open file '/tmp/nosuch.py': [Errno 2]");
      expect(r.stderr).toContain('Unknown option: -Z');
    },
    LONG,
  );

  it(
    'prints an uncaught exception as CPython does, without driver frames, and exits 1',
    async () => {
      await sb.writeFile('/tmp/fail.py', 'def f():\n    raise ValueError("bad value")\n\nf()\n');
      const r = await sb.run('python3 /tmp/fail.py; echo "status $?"', opts);
      expect(r.stdout).toBe('status 1\n');
      expect(r.stderr).toBe(
        [
          'Traceback (most recent call last):',
          '  File "/tmp/fail.py", line 4, in <module>',
          '    f()',
          '    ~^^',
          '  File "/tmp/fail.py", line 2, in f',
          '    raise ValueError("bad value")',
          'ValueError: bad value',
          '',
        ].join('\n'),
      );
      // -c code's source lines (CPython 3.13+), -m's frozen runpy frames, Linux errno numbers and
      // texts, a program's own excepthook.
      await sb.writeFile('/tmp/failmod.py', 'import os\nos.readlink("/tmp/failmod.py")\n');
      const c = await sb.run(
        [
          `cd /tmp; python3 -c 'x = 1\nopen("/nonexistent/f")'`,
          'python3 -m failmod',
          `python3 -c 'import sys; sys.excepthook = lambda t, v, tb: print("hook", t.__name__, v); 1/0'; echo "hook $?"`,
        ].join('\n'),
        opts,
      );
      expect(c.stdout).toBe('hook ZeroDivisionError division by zero\nhook 1\n');
      expect(c.stderr).toBe(
        [
          'Traceback (most recent call last):',
          '  File "<string>", line 2, in <module>',
          '    open("/nonexistent/f")',
          '    ~~~~^^^^^^^^^^^^^^^^^^',
          "FileNotFoundError: [Errno 2] No such file or directory: '/nonexistent/f'",
          'Traceback (most recent call last):',
          '  File "<frozen runpy>", line 198, in _run_module_as_main',
          '  File "<frozen runpy>", line 88, in _run_code',
          '  File "/tmp/failmod.py", line 2, in <module>',
          '    os.readlink("/tmp/failmod.py")',
          '    ~~~~~~~~~~~^^^^^^^^^^^^^^^^^^^',
          "OSError: [Errno 22] Invalid argument: '/tmp/failmod.py'",
          '',
        ].join('\n'),
      );
    },
    LONG,
  );

  it(
    'reads and writes pipes, buffers stdout when not a tty, and sees files other processes change',
    async () => {
      const r = await sb.run(
        [
          'cd /tmp',
          'printf "b\\na\\nc\\n" | python3 -c "import sys; [print(l.strip().upper()) for l in sys.stdin]" | sort',
          'python3 -c "import sys; print(sys.stdout.isatty(), sys.stdin.isatty(), sys.stdout.line_buffering)" < /dev/null',
          "python3 -c \"open('made.txt', 'w').write('from python\\n')\" && cat made.txt",
          "echo shell > shell.txt; python3 -c \"import os; print(open('shell.txt').read().strip()); os.remove('shell.txt')\"; ls shell.txt 2>&1",
          "python3 -c \"print('to stderr', file=__import__('sys').stderr)\" 2>&1 >/dev/null | tr a-z A-Z",
        ].join('\n'),
        opts,
      );
      expect(r.stdout).toBe(
        [
          'A',
          'B',
          'C',
          'False False False',
          'from python',
          'shell',
          "ls: cannot access 'shell.txt': No such file or directory",
          'TO STDERR',
          '',
        ].join('\n'),
      );
    },
    LONG,
  );

  it(
    'starts every process from a fresh interpreter, in a fresh realm when its worker is recycled',
    async () => {
      // Each run changes what a snapshot or a reused interpreter would carry over,
      // Python's state and the JavaScript realm's (Python reaches its intrinsics through pyodide.ffi).
      const dirty =
        "import builtins, json, os, random, sys; sys.modules['leak'] = 1; os.environ['LEAK'] = '1'; x = 5; os.chdir('/'); json.dumps = None; builtins.LEAK = 1; sys.path.append('/leak'); from pyodide.ffi import to_js; a = to_js([1]); a.constructor.prototype.sgLeak = 'array'; a.map.constructor.prototype.sgLeak = 'function'; print(random.random(), to_js([2]).sgLeak, to_js([]).push.sgLeak)";
      const check =
        "import builtins, json, os, random, sys; from pyodide.ffi import to_js; print('leak' in sys.modules or '_sandglass_boot' in sys.modules, 'LEAK' in os.environ, 'x' in globals(), os.getcwd(), json.dumps is None, hasattr(builtins, 'LEAK'), '/leak' in sys.path, hasattr(to_js([1]), 'sgLeak'), hasattr(to_js([]).push, 'sgLeak')); print(random.random())";
      // The stdlib zip's bytes are shared by every interpreter (copied on the first write):
      // writes through a mapping and through a file leave the next process's zip as built.
      const mapped =
        "import mmap; f = open('/lib/python314.zip', 'r+b'); m = mmap.mmap(f.fileno(), 8192, access=mmap.ACCESS_WRITE); m[4096:4160] = b'Y' * 64; m.flush(); m.close(); f.seek(4096); print(f.read(4))";
      const written =
        "f = open('/lib/python314.zip', 'r+b'); f.write(b'X' * 64); f.flush(); f.seek(0); print(f.read(4))";
      const zipCheck =
        "import colorsys; z = open('/lib/python314.zip', 'rb').read(8192); print(z[:4] == b'PK\\x03\\x04', b'XXXX' in z, b'YYYY' in z)";
      const recycledBefore = PythonPool.recycledBoots();
      const r = await sb.run(
        `cd /tmp; python3 -c "${dirty}"; python3 -c "${mapped}"; python3 -c "${written}"; python3 -c "${check}"; python3 -c "${zipCheck}"`,
        opts,
      );
      const [first, ownMap, ownWrite, state, second, zip] = r.stdout.split('\n');
      expect(r.stderr).toBe('');
      // The realm's intrinsics changed within the process that changed them...
      expect(first?.split(' ').slice(1)).toEqual(['array', 'function']);
      expect([ownMap, ownWrite]).toEqual(["b'YYYY'", "b'XXXX'"]);
      expect(zip).toBe('True False False');
      // ... and nothing of it is seen by later processes.
      expect(state).toBe('False False False /tmp False False False False False');
      // Random state is seeded per process from the kernel, not frozen in the snapshot.
      expect(first?.split(' ')[0]).not.toBe(second);
      // Back-to-back processes boot in recycled workers (a new realm each): the checks above ran there.
      const again = await sb.run(
        `cd /tmp; for i in 1 2 3; do python3 -c "${dirty}" > /dev/null; python3 -c "${check}" | head -1; done`,
        opts,
      );
      expect(again.stdout).toBe('False False False /tmp False False False False False\n'.repeat(3));
      expect(PythonPool.recycledBoots()).toBeGreaterThan(recycledBefore);
    },
    LONG,
  );

  it(
    'select and poll on pipes wait for data or the timeout, and report ready descriptors',
    async () => {
      await sb.writeFile(
        '/tmp/sel.py',
        [
          'import os, select, selectors, subprocess, time',
          'r, w = os.pipe()',
          't = time.monotonic(); res = select.select([r], [], [], 0.4); dt = time.monotonic() - t',
          'print("timeout", res, 0.35 < dt < 5)',
          'print("writable", select.select([r], [w], [], 5)[1] == [w])',
          'os.write(w, b"x")',
          't = time.monotonic(); print("readable", select.select([r], [], [], 5)[0] == [r], time.monotonic() - t < 4)',
          'p = select.poll(); p.register(r, select.POLLIN)',
          'print("poll ready", p.poll(5000) == [(r, select.POLLIN)])',
          'os.read(r, 1)',
          't = time.monotonic(); print("poll timeout", p.poll(300), 0.25 < time.monotonic() - t < 5)',
          'os.close(w); print("hup", [(fd, ev & select.POLLHUP != 0) for fd, ev in p.poll(5000)] == [(r, True)])',
          '# A child writes late: select waits for it.',
          'c = subprocess.Popen(["sh", "-c", "sleep 0.3; echo late"], stdout=subprocess.PIPE)',
          't = time.monotonic(); ready = select.select([c.stdout], [], [], 10)[0]; dt = time.monotonic() - t',
          'print("child", ready == [c.stdout], 0.2 < dt < 9, c.stdout.read())',
          'c.wait()',
          'with selectors.DefaultSelector() as s:',
          '    a, b = os.pipe(); s.register(a, selectors.EVENT_READ)',
          '    t = time.monotonic(); print("selector", s.select(0.3), 0.25 < time.monotonic() - t < 5)',
          'try:',
          '    select.select([r], [], [], -1)',
          'except ValueError as e:',
          '    print("negative", e)',
        ].join('\n'),
      );
      const r = await sb.run('python3 /tmp/sel.py', opts);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(
        [
          'timeout ([], [], []) True',
          'writable True',
          'readable True True',
          'poll ready True',
          'poll timeout [] True',
          'hup True',
          "child True True b'late\\n'",
          'selector [] True',
          'negative timeout must be non-negative',
          '',
        ].join('\n'),
      );
    },
    LONG,
  );

  it(
    'has the time zone database for zoneinfo',
    async () => {
      const r = await sb.run(
        `python3 -c "
from datetime import datetime
from zoneinfo import ZoneInfo, available_timezones
d = datetime(2024, 7, 1, 12, tzinfo=ZoneInfo('UTC'))
print(d.astimezone(ZoneInfo('Europe/Paris')).isoformat(), d.astimezone(ZoneInfo('America/New_York')).tzname())
print(datetime(2024, 1, 1, tzinfo=ZoneInfo('Asia/Kolkata')).utcoffset(), 'Europe/Paris' in available_timezones())
"`,
        opts,
      );
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('2024-07-01T14:00:00+02:00 EDT\n5:30:00 True\n');
    },
    LONG,
  );

  it(
    'runs children through the kernel: subprocess, os.system, os.popen, pipes, which, umask',
    async () => {
      await sb.writeFile(
        '/tmp/sub.py',
        [
          'import os, shutil, subprocess, sys, time',
          'print(subprocess.run(["echo", "hello"], capture_output=True, text=True).stdout.strip())',
          'print(subprocess.check_output(["tr", "a-z", "A-Z"], input=b"abc\\n"))',
          'p = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)',
          'out, _ = p.communicate(b"x" * 300000)',
          'print(len(out), p.returncode)',
          'try:',
          '    subprocess.run(["nosuchprog"])',
          'except FileNotFoundError as e:',
          '    print("FNF", e.filename)',
          'try:',
          '    subprocess.run(["false"], check=True)',
          'except subprocess.CalledProcessError as e:',
          '    print("CPE", e.returncode)',
          'sys.stdout.flush()',
          'print(os.system("exit 3") >> 8, os.popen("echo popen").read().strip(), shutil.which("ls"))',
          'print(subprocess.run(["pwd"], cwd="/usr", capture_output=True, text=True).stdout.strip())',
          'print(subprocess.run(["sh", "-c", "echo $FOO"], env={"FOO": "envok"}, capture_output=True, text=True).stdout.strip())',
          'os.umask(0o077); open("/tmp/um", "w").close(); print(oct(os.stat("/tmp/um").st_mode & 0o777))',
          't = time.monotonic(); time.sleep(0.3); print(0.25 < time.monotonic() - t < 2)',
        ].join('\n'),
      );
      const r = await sb.run('python3 /tmp/sub.py; ls -l /tmp/um | cut -c1-10', opts);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(
        [
          'hello',
          "b'ABC\\n'",
          '300000 0',
          'FNF nosuchprog',
          'CPE 1',
          '3 popen /usr/bin/ls',
          '/usr',
          'envok',
          '0o600',
          'True',
          '-rw-------',
          '',
        ].join('\n'),
      );
    },
    LONG,
  );

  it(
    'ends on kill, and a SIGINT raises KeyboardInterrupt (exit 130 uncaught)',
    async () => {
      const r = await sb.run(
        [
          // Each program prints its pid once running; the signal goes to that pid.
          // Job control on: a background job of a shell without it ignores SIGINT (as in bash).
          'set -m',
          'pidof() { until grep -q ready "$1" 2>/dev/null; do sleep 0.05; done; cut -d" " -f2 "$1"; }',
          'python3 -c "import os; print(\'ready\', os.getpid(), flush=True)\nwhile True: pass" > /tmp/o1 &',
          'kill $(pidof /tmp/o1); wait $!; echo "killed $?"',
          'python3 -c "import os, time; print(\'ready\', os.getpid(), flush=True); time.sleep(60)" > /tmp/o2 &',
          'kill -INT $(pidof /tmp/o2); wait $!; echo "sigint $?"',
          `python3 -c "import os, time\ntry:\n    print('ready', os.getpid(), flush=True); time.sleep(30)\nexcept KeyboardInterrupt:\n    print('caught')" > /tmp/o3 &`,
          'kill -INT $(pidof /tmp/o3); wait $!; echo "handled $?"; cut -d" " -f1 /tmp/o3',
          'python3 -c "print(1)"; echo "healthy $?"',
        ].join('\n'),
        opts,
      );
      expect(r.stdout).toBe('killed 143\nsigint 130\nhandled 0\nready\ncaught\n1\nhealthy 0\n');
      expect(r.stderr).toContain('KeyboardInterrupt');
    },
    LONG,
  );

  it(
    'kill $! reaches a background python3 itself (its job execs it), and Popen(shell=True, executable=bash).terminate() ends the command',
    async () => {
      const r = await sb.run(
        [
          `python3 -c "import signal, sys, time\nsignal.signal(15, lambda *a: (print('term', flush=True), sys.exit(3)))\nprint('ready', flush=True)\ntime.sleep(30)" > /tmp/t1 &`,
          'until grep -q ready /tmp/t1 2>/dev/null; do sleep 0.05; done',
          'kill $!; wait $!; echo "status $?"; cat /tmp/t1',
          // an orphaned sleep would hold the pipe open and communicate() would wait for it (bash
          // execs a -c text's last command; sh keeps itself there, as Debian's dash does)
          `python3 -c "import subprocess, time\np = subprocess.Popen('sleep 30', shell=True, executable='/bin/bash', stdout=subprocess.PIPE)\ntime.sleep(0.5)\np.terminate()\nt = time.monotonic()\np.communicate()\nprint('rc', p.returncode, time.monotonic() - t < 10)"`,
        ].join('\n'),
        opts,
      );
      expect(r.stdout).toBe('status 3\nready\nterm\nrc -15 True\n');
    },
    LONG,
  );

  it(
    'holds Python to the process memory limit: MemoryError as under a ulimit, then it goes on',
    async () => {
      const small = await Sandbox.create({ limits: { memoryBytes: 256 * 1024 * 1024 } });
      try {
        const r = await small.run(
          [
            `python3 -c 'x = bytearray(300 * 2**20)'; echo "uncaught $?"`,
            `python3 -c 'try:\n    x = bytearray(300 * 2**20)\nexcept MemoryError:\n    print("caught")\nprint(len(bytearray(50 * 2**20)))'`,
          ].join('\n'),
          opts,
        );
        expect(r.stdout).toBe('uncaught 1\ncaught\n52428800\n');
        expect(r.stderr).toMatch(/^Traceback \(most recent call last\):\n[^]*\nMemoryError\n$/);
        // Each growth was reported to the kernel while it ran.
        expect(small.stats().processes.every((p) => p.memoryBytes <= 256 * 1024 * 1024)).toBe(true);
      } finally {
        await small.destroy();
      }
    },
    LONG,
  );

  it(
    'emulates threads: a wait no thread can end is a clear error, not a hang; processes fail clearly, pools run inline',
    async () => {
      await sb.writeFile(
        '/tmp/deadlock.py',
        [
          'import threading, queue, signal, multiprocessing',
          'l = threading.Lock(); l.acquire()',
          'try: l.acquire()',
          'except RuntimeError as e: print(e)',
          'try: queue.Queue().get()',
          'except RuntimeError as e: print("queue", type(e).__name__)',
          't = threading.Thread(target=lambda: queue.Queue().get(), daemon=True); t.start(); t.join(0.1)',
          'print("parked thread alive", t.is_alive())',
          '# With a handler set, a signal may end the wait: it waits (the alarm ends it).',
          'ev = threading.Event()',
          'signal.signal(signal.SIGALRM, lambda *a: ev.set()); signal.setitimer(signal.ITIMER_REAL, 0.05)',
          'print("woken", ev.wait())',
          'with multiprocessing.Pool(2) as p: print("Pool:", p.map(abs, [-1, -2]))',
          'try: multiprocessing.Process(target=print).start()',
          'except ImportError as e: print("Process:", e)',
        ].join('\n'),
      );
      const r = await sb.run('python3 /tmp/deadlock.py; echo "status $?"', opts);
      expect(r.stdout).toBe(
        [
          'deadlock: acquiring a lock would wait forever (threads run one at a time in the sandbox and no started thread is left to run)',
          'queue RuntimeError',
          'parked thread alive True',
          'woken True',
          'Pool: [1, 2]',
          "Process: No module named '_multiprocessing'",
          'status 0',
          '',
        ].join('\n'),
      );
    },
    LONG,
  );

  // Each script runs in the sandbox and with the host's python3, stdout and stderr into one
  // pipe (their interleaving is part of the check), stdin from the same text.
  const difftestDir = fileURLToPath(new URL('./difftest/', import.meta.url));
  const difftests = readdirSync(difftestDir)
    .filter((n) => n.endsWith('.py'))
    .sort();
  const hostPython = spawnSync('python3', ['--version'], { encoding: 'utf8' }).status === 0;
  // A harness that runs us in a PID namespace under another namespace's /proc leaves the host
  // no /proc/<its pid>: a script that reads it has nothing to be compared with there.
  const hostProcShowsItsPids =
    spawnSync(
      'python3',
      ['-c', 'import os; print(os.path.realpath("/proc/self") == f"/proc/{os.getpid()}")'],
      { encoding: 'utf8' },
    ).stdout?.trim() === 'True';
  const readsProcByPid = (source: string): boolean => /\/proc\/(?:\{|\$PPID)/.test(source);
  const input = 'first line\nsecond\nthird one\n';
  it.for(difftests)(
    'agrees with the host python3 on difftest/%s',
    { timeout: LONG },
    async (name, { skip }) => {
      const source = readFileSync(join(difftestDir, name));
      skip(!hostPython, 'no python3 on the host');
      skip(
        !hostProcShowsItsPids && readsProcByPid(source.toString()),
        "the host's /proc does not show its own pids",
      );
      await sb.mkdir('/tmp/diff', { recursive: true });
      await sb.writeFile(`/tmp/diff/${name}`, source);
      await sb.writeFile('/tmp/diff/input', input);
      const r = await sb.run(
        `python3 /tmp/diff/${name} < /tmp/diff/input 2>&1; echo "== $?"`,
        opts,
      );
      // In a session of its own, as the sandbox's shell is: a harness that runs us in a PID
      // namespace whose session leader lies outside it (CI) makes getsid()/getpgrp() say 0.
      const script = `python3 '${join(difftestDir, name)}' 2>&1; echo "== $?"`;
      const h = spawnSync('setsid', ['--wait', 'sh', '-c', script], {
        input,
        encoding: 'utf8',
        // The sandbox's environment has no PYTHON* settings (PYTHONUNBUFFERED...); nor does this run.
        env: Object.fromEntries(
          Object.entries(process.env).filter(([v]) => !v.startsWith('PYTHON')),
        ),
      });
      expect(r.stdout, firstDifference(h.stdout, r.stdout, ['host', 'sandbox'])).toBe(h.stdout);
    },
  );
});
