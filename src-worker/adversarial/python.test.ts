/**
 * Python as an attacker's tool: host files and environment, the JS bridge,
 * processes, memory and time. One python3 process runs the attempts that
 * fail with an exception (each prints its own line); the attacks that end
 * the interpreter (a memory hog, an endless loop) run alone. The deeper
 * JS-realm escapes live in src-worker/python/escape.test.ts.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { DEFAULT_SETTINGS } from '../api/engine.js';
import { pythonAvailable } from '../programs/python.js';
import { useArena } from './arena.js';

const HOST_SECRET = `sg-adv-py-${process.pid}-${Date.now()}`;
process.env.SG_ADV_PY_SECRET = HOST_SECRET;

/** Attempts: name -> expression that must raise (the exception's type is printed). */
const ATTEMPTS: Record<string, [code: string, raises: string]> = {
  'import js': ['__import__("js")', 'ModuleNotFoundError|ImportError'],
  'import pyodide_js': ['__import__("pyodide_js")', 'ModuleNotFoundError|ImportError'],
  'ctypes into libc': ['__import__("ctypes").CDLL("libc.so.6")', 'OSError|ImportError'],
  'open a host file': ['open(HOST + "/secret.txt").read()', 'FileNotFoundError'],
  'write a host file': ['open(HOST + "/secret.txt", "w").write("pwned")', 'FileNotFoundError'],
  'os.fork': ['__import__("os").fork()', 'OSError|AttributeError'],
  'bytearray of 1.5 GB': ['bytearray(1536 * 1024**2)', 'MemoryError'],
  'string of 4 GB': ['"x" * (4 * 1024**3)', 'MemoryError|OverflowError'],
  'recursion without end': ['(lambda f: f(f))(lambda f: f(f))', 'RecursionError'],
  'a socket to the host': [
    '__import__("socket").create_connection(("127.0.0.1", 22), timeout=2)',
    'PermissionError|OSError|ConnectionRefusedError|TimeoutError',
  ],
  'a subprocess per process slot': [
    '[__import__("subprocess").Popen(["sleep", "5"]) for _ in range(100)]',
    'OSError|BlockingIOError',
  ],
};

function script(host: string): string {
  const lines = Object.entries(ATTEMPTS).map(
    ([name, [code]]) => `attempt(${JSON.stringify(name)}, lambda: ${code})`,
  );
  return `
import os, sys
HOST = ${JSON.stringify(host)}
def attempt(name, f):
    try:
        f()
        print(f"RETURNED {name}")
    except BaseException as e:
        print(f"RAISED {name}: {type(e).__name__}")
${lines.join('\n')}
print("ENV", any(${JSON.stringify(HOST_SECRET)} in v for v in os.environ.values()))
print("DONE")
`;
}

describe.skipIf(!pythonAvailable())('python as an attacker', () => {
  const arena = useArena({
    settings: {
      ...DEFAULT_SETTINGS,
      limits: { ...DEFAULT_SETTINGS.limits, processCount: 16, memoryBytes: 512 * 1024 * 1024 },
    },
  });
  let out = '';

  beforeAll(async () => {
    const a = arena();
    await a.call('writeFile', {
      sandboxId: a.target.id,
      path: '/tmp/attempts.py',
      base64: Buffer.from(script(a.host.dir)).toString('base64'),
    });
    const r = await a.run('python3 /tmp/attempts.py', 240_000);
    out = r.stdout;
    if (!out.includes('DONE')) throw new Error(`the attempts did not finish: ${r.stderr}`);
  }, 300_000);

  it.each(Object.entries(ATTEMPTS))('%s', (name, [, raises]) => {
    const line = out.split('\n').find((l) => l.includes(` ${name}`)) ?? `(no line for ${name})`;
    expect(line).toMatch(new RegExp(`^RAISED ${name.replace(/[()]/g, '\\$&')}: (${raises})$`));
  });

  it('the host environment is not visible', () => {
    expect(out).toContain('ENV False');
    expect(out).not.toContain(HOST_SECRET);
  });

  it('a list that grows without end ends with MemoryError or the memory limit', async () => {
    const r = await arena().run(
      'python3 -c "x = []\nwhile True: x.append(bytearray(1 << 20))"',
      240_000,
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/MemoryError|memory limit/);
  }, 300_000);

  it('an endless loop is killed at the time limit', async () => {
    const r = await arena().run('python3 -c "while True: pass"', 8000);
    expect(r.status).toBe(124);
    expect(r.stderr).toMatch(/time limit of \d+ ms exceeded/);
  }, 300_000);
});
