/**
 * Emscripten's dynamic linker as the build rewrites it (scripts/build-python.mjs,
 * ASM_REWRITES): the global symbol table inherits the main module's exports
 * instead of copying them, and the scan of the function table waits for the
 * first wasm function asked about. What reaches them from Python is ctypes:
 * `dlsym` on the main module, a function's table slot, a Python callback put
 * in the table. Run in the sandbox and, when there is one, with the host's
 * python3: the output must be the same.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../sandbox/sandbox.js';
import { pythonAvailable } from '../programs/python.js';

const SCRIPT = [
  'import ctypes',
  'libc = ctypes.CDLL(None)',
  'print(libc.strlen(b"sandglass"), libc.abs(-7))',
  '# The same function found twice has one address (one table slot).',
  'f = ctypes.cast(libc.strlen, ctypes.c_void_p).value',
  'g = ctypes.cast(ctypes.CDLL(None).strlen, ctypes.c_void_p).value',
  'print("same address", f == g, f != 0)',
  'try:',
  '    libc.no_such_function_sg',
  'except AttributeError as e:',
  '    print("missing", "no_such_function_sg" in str(e))',
  '# A Python callback gets a table slot and C calls it.',
  'CMP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))',
  'arr = (ctypes.c_int * 5)(5, 1, 4, 2, 3)',
  'libc.qsort(arr, 5, ctypes.sizeof(ctypes.c_int), CMP(lambda a, b: a[0] - b[0]))',
  'print(list(arr))',
  '',
].join('\n');

const EXPECTED = '9 7\nsame address True True\nmissing True\n[1, 2, 3, 4, 5]\n';

describe.skipIf(!pythonAvailable())('the interpreter’s dynamic linker', () => {
  it('ctypes finds C functions of the main module, one slot each, and calls back into Python', async () => {
    const host = spawnSync('python3', ['-c', SCRIPT], { encoding: 'utf8' });
    if (host.status === 0) expect(host.stdout).toBe(EXPECTED);
    const sb = await Sandbox.create();
    try {
      await sb.writeFile('/tmp/linker.py', SCRIPT);
      const r = await sb.run('python3 /tmp/linker.py; echo "status $?"', { timeoutMs: 300_000 });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(`${EXPECTED}status 0\n`);
    } finally {
      await sb.destroy();
    }
  }, 600_000);
});
