/**
 * Adversarial tests of the Python sandbox boundary (see docs/python.md).
 * Each attempt runs inside one python3 process and must fail there, and a
 * host sentinel must prove nothing happened: no file appears in a host
 * directory the attempts target, no connection reaches a host socket, no
 * host secret shows up in the output, and the engine still runs Python.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../sandbox/sandbox.js';
import { defaultPythonDir, pythonAvailable } from '../programs/python.js';

const SECRET = `sg-secret-${process.pid}-${Date.now()}`;

/** The attempts: each prints "BLOCKED <name>: <why>" or "ESCAPED <name>". */
function attempts(sentinel: string, port: number, engineFile: string): string {
  const touch = `touch ${sentinel}/`;
  const js = (name: string, code: string): string =>
    `attempt(${JSON.stringify(name)}, lambda: ${code})`;
  return `
import os, sys, subprocess, time
SENT = ${JSON.stringify(sentinel)}
# Attempts that may return normally (their result says whether they got through);
# every other attempt must raise.
# Commands aimed at the host run in the sandbox (where SENT exists too): they may succeed there.
MAY_RETURN = {"os-system-host", "subprocess-run-host", "os-popen-host", "ctypes-system", "host-file-write",
              "proc-self-environ-secret", "os-environ-secret", "gc-jsproxy-hunt", "pickle-reduce-system",
              "marshal-code-exec", "ctypes-getenv-secret"}
os.makedirs(SENT, exist_ok=True)
def attempt(name, f):
    try:
        r = f()
    except BaseException as e:
        print(f"BLOCKED {name}: {type(e).__name__}: {str(e)[:80]}")
        return
    if r is True or name not in MAY_RETURN:
        print(f"ESCAPED {name}: returned {str(r)[:60]!r}")
    else:
        print(f"BLOCKED {name}: returned {str(r)[:60]!r}")
def imp(m):
    return __import__(m)
def ffi():
    import pyodide.ffi
    return pyodide.ffi
def fn_ctor(obj):
    return obj.constructor.constructor
def run_js(code):
    from pyodide.code import run_js
    return run_js(code)
def host_ctor(o):
    """True if o's constructor chain runs code in a realm that has the host's process."""
    try:
        return o.constructor.constructor("return typeof process")() == "object"
    except BaseException:
        return False
def gc_hunt():
    # Every JS object Python can still find (leftovers of Pyodide's boot, our bridge in
    # the shims' globals, module attributes): none may lead to the host's realm.
    import gc
    seen = [o for o in gc.get_objects() if "JsProxy" in type(o).__name__ or "Js" in type(o).__name__[:2]]
    for m in list(sys.modules.values()):
        seen += [v for v in vars(m).values() if "Js" in type(v).__name__] if hasattr(m, "__dict__") else []
    for f in (os.pipe, os.system, time.sleep):
        seen += [v for v in getattr(f, "__globals__", {}).values() if "Js" in type(v).__name__]
    if any(host_ctor(o) for o in seen):
        return True
    return f"{len(seen)} JS objects, none reaches the host"
def ctypes_getenv(name):
    # C's environment (Emscripten's) must not be the host's either.
    import ctypes
    getenv = ctypes.CDLL(None).getenv
    getenv.restype = ctypes.c_char_p
    v = getenv(name.encode())
    return v is not None and ${JSON.stringify(SECRET)}.encode() in v or repr(v)
def js_finder():
    # Pyodide's JS import hook, put back on sys.meta_path: no JS module is left to find.
    from _pyodide._importhook import jsfinder
    sys.meta_path.insert(0, jsfinder)
    sys.modules.pop("js", None)
    # (what the script registered itself, register_js_module above, is a realm object of its own)
    if [n for n in ("js", "pyodide_js", "_sandglass_kernel", "_sandglass_net") if jsfinder.find_spec(n, None)]:
        return True
    return __import__("js")
class Evil:
    def __reduce__(self):
        return (os.system, (f"touch {SENT}/pickle",))
${js('import-js', 'imp("js")')}
${js('import-pyodide_js', 'imp("pyodide_js")')}
${js('from-js-import', 'exec("from js import process")')}
${js('run_js-process', "run_js(\"process.mainModule.require('child_process').execSync('" + touch + 'run_js\')")')}
${js('run_js-import', 'run_js("import(\'node:fs\')")')}
${js('to_js-list-ctor', `fn_ctor(ffi().to_js([1]))("return process")().mainModule.require("fs").writeFileSync(SENT + "/to_js-list-ctor", "x")`)}
${js('to_js-dict-ctor', `fn_ctor(ffi().to_js({"a": 1}))("return process")()`)}
${js('to_js-map-method', `ffi().to_js([1]).map.constructor("return globalThis.process")().exit(9)`)}
${js('create_proxy-ctor', `fn_ctor(ffi().create_proxy(lambda: 0))("return this")().process.exit(9)`)}
${js('jsproxy-proto-chain', `ffi().to_js([1]).__proto__.constructor.constructor("return process")()`)}
${js('function-call-apply', `ffi().to_js([1]).map.constructor.call(None, "return process")()`)}
${js('dynamic-import-via-function', `fn_ctor(ffi().to_js([]))("return import('node:child_process')")()`)}
${js('async-function-ctor', `ffi().to_js([]).constructor.constructor("return (async()=>0)")()().constructor.constructor("return process")()`)}
${js('register_js_module', `(ffi().register_js_module("hostjs", ffi().to_js({})), imp("hostjs").constructor.constructor("return process")())`)}
${js('pyodide-globals', `imp("pyodide").__dict__["_api"]`)}
${js('os-system-host', `os.system("${touch}os-system")`)}
${js('subprocess-run-host', `subprocess.run(["touch", SENT + "/subprocess"], check=True).returncode`)}
${js('os-popen-host', `os.popen("${touch}popen").read()`)}
${js('os-fork', 'os.fork()')}
${js('os-exec', `os.execv("/bin/sh", ["sh", "-c", "${touch}exec"])`)}
${js('ctypes-system', `__import__("ctypes").CDLL(None).system(("${touch}ctypes").encode())`)}
${js('host-file-write', `open(SENT + "/host-file-write", "w").write("x")`)}
${js('read-engine-file', `open(${JSON.stringify(engineFile)}, "rb").read(16)`)}
${js('proc-self-environ-secret', `"${SECRET}".encode() in open("/proc/self/environ", "rb").read()`)}
${js('os-environ-secret', `any("${SECRET}" in v for v in os.environ.values()) or None`)}
${js('proc-self-root-escape', `os.listdir("/proc/self/root" + ${JSON.stringify(join(defaultPythonDir(), '..'))})`)}
${js('dotdot-escape', `open("/../../../../" + ${JSON.stringify(engineFile)}, "rb").read(4)`)}
${js('socket-host', `__import__("socket").create_connection(("127.0.0.1", ${port}), timeout=2)`)}
${js('urllib-host', `__import__("urllib.request").request.urlopen("http://127.0.0.1:${port}/", timeout=2).read()`)}
${js('pyodide-http-open_url', `__import__("pyodide.http").http.open_url("http://127.0.0.1:${port}/")`)}
${js('gc-jsproxy-hunt', 'gc_hunt()')}
${js('shim-bridge-ctor', 'os.pipe.__globals__["_k"].spawn.constructor("return process")()')}
${js('shim-bridge-call-apply', 'os.pipe.__globals__["_k"].spawn.constructor.apply(None, ["return process"])()')}
${js('importlib-host-file', `__import__("importlib.util").util.spec_from_file_location("h", ${JSON.stringify(engineFile)}).loader.load_module()`)}
${js('zipimport-host-zip', `__import__("zipimport").zipimporter(${JSON.stringify(join(defaultPythonDir(), 'python_stdlib.zip'))})`)}
${js('ctypes-host-libc', '__import__("ctypes").CDLL("/lib/x86_64-linux-gnu/libc.so.6")')}
${js('ctypes-getenv-secret', 'ctypes_getenv("SANDGLASS_ESCAPE_SECRET")')}
${js('pickle-reduce-system', '__import__("pickle").loads(__import__("pickle").dumps(Evil()))')}
${js('marshal-code-exec', `exec(__import__("marshal").loads(__import__("marshal").dumps(compile("import os; os.system('${touch}marshal')", "m", "exec"))))`)}
${js('js-finder-reregister', 'js_finder()')}
${js('proc-self-mem', 'open("/proc/self/mem", "rb").read(16)')}
${js('dev-host-tty', 'open("/dev/pts/0", "wb").write(b"x")')}
${js('webloop', '__import__("pyodide.webloop").webloop.WebLoop().run_until_complete(__import__("asyncio").sleep(0))')}
print("DONE")
`;
}

const available = pythonAvailable();

describe.skipIf(!available)('python sandbox boundary', () => {
  let sb: Sandbox;
  let sentinel: string;
  let server: Server;
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    process.env.SANDGLASS_ESCAPE_SECRET = SECRET;
    sentinel = mkdtempSync(join(tmpdir(), 'sg-py-sentinel-'));
    server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
    sb = await Sandbox.create();
  });

  afterAll(async () => {
    await sb.destroy();
    server.close();
    rmSync(sentinel, { recursive: true, force: true });
    delete process.env.SANDGLASS_ESCAPE_SECRET;
  });

  it('every escape attempt fails inside Python and leaves no trace on the host', async () => {
    const engineFile = join(defaultPythonDir(), 'pyodide.asm.js');
    await sb.writeFile('/tmp/escape.py', attempts(sentinel, port, engineFile));
    const r = await sb.run('python3 /tmp/escape.py', { timeoutMs: 240_000 });
    if (process.env.SHOW_ESCAPES) console.log(r.stdout, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => /^(BLOCKED|ESCAPED)/.test(l));
    expect(r.stdout).toContain('DONE');
    expect(lines.length).toBeGreaterThanOrEqual(43);
    expect(lines.filter((l) => l.startsWith('ESCAPED'))).toEqual([]);
    expect(readdirSync(sentinel)).toEqual([]);
    expect(connections).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    // The engine is healthy afterwards.
    const again = await sb.run('python3 -c "print(6 * 7)"', { timeoutMs: 240_000 });
    expect(again.stdout).toBe('42\n');
  }, 600_000);

  it('attacks that end the interpreter change nothing on the host, nor the next process, and the engine goes on', async () => {
    // Each attack is a process of its own (it may take its interpreter down), in a sandbox
    // with few process slots and bytes of output.
    const small = await Sandbox.create({
      limits: { maxProcesses: 6, outputBytes: 1 << 20, wallTimeMs: 120_000 },
    });
    const touch = (name: string): string =>
      `require('fs').writeFileSync('${sentinel}/${name}', 'x')`;
    const attacks: Record<string, string> = {
      // Emscripten's eval, from C: code generation from strings is off in the realm.
      'ctypes-run-script': `import ctypes; ctypes.CDLL(None).emscripten_run_script(b"${touch('run_script')}")`,
      'ctypes-run-script-int': `import ctypes; print(ctypes.CDLL(None).emscripten_run_script_int(b"typeof process"))`,
      // Unbounded recursion past any sane limit: the wasm stack, not the host, gives out.
      recursion: 'import sys; sys.setrecursionlimit(10**7)\ndef f(n): return f(n + 1)\nf(0)',
      // Endless output: cut by the output limit (or a closed pipe).
      'endless-output': 'import sys\nwhile True: sys.stdout.write("x" * 65536)',
      // A process bomb: every child starts two more; the process limit stops it.
      'process-bomb': `import subprocess, sys\nsrc = open(sys.argv[0]).read() if sys.argv[0].endswith('.py') else ''\nps = []\nfor _ in range(2):\n    try: ps.append(subprocess.Popen(["sh", "-c", "sleep 2 & sleep 2 & wait"]))\n    except OSError as e: print("limit", e.errno)\n[p.wait() for p in ps]`,
      // Poison what the next interpreter would import from /lib (each interpreter has its own).
      'lib-poison': `import os, sys\nsp = [p for p in sys.path if p.endswith('site-packages')][0]\nos.makedirs(sp, exist_ok=True)\nopen(sp + '/sitecustomize.py', 'w').write("open('/tmp/poisoned', 'w')\\n")\nopen('/lib/python3.14/json.py', 'w').write("POISON = 1\\n")\nimport importlib; sys.modules['os'].POISON = 1`,
    };
    try {
      for (const [name, code] of Object.entries(attacks)) {
        await small.writeFile(`/tmp/${name}.py`, code);
        const r = await small.run(`python3 /tmp/${name}.py 2>&1 | head -c 2000; echo " [$?]"`, {
          timeoutMs: 240_000,
        });
        if (process.env.SHOW_ESCAPES) console.log(name, JSON.stringify(r.stdout.slice(-300)));
        expect(r.stdout, name).not.toMatch(/^object$/m);
        expect(readdirSync(sentinel), name).toEqual([]);
      }
      // The next process starts clean: nothing of /lib or sys.modules carried over.
      const next = await small.run(
        `python3 -c "import json, os; print(hasattr(json, 'POISON'), hasattr(os, 'POISON'), os.path.exists('/tmp/poisoned'), json.dumps([1]))"`,
        { timeoutMs: 240_000 },
      );
      expect(next.stdout).toBe('False False False [1]\n');
      expect((await small.run('echo shell ok', { timeoutMs: 60_000 })).stdout).toBe('shell ok\n');
    } finally {
      await small.destroy();
    }
  }, 900_000);
});
