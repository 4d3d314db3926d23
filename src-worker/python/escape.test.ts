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
import os, sys, subprocess
SENT = ${JSON.stringify(sentinel)}
# Attempts that may return normally (their result says whether they got through);
# every other attempt must raise.
# Commands aimed at the host run in the sandbox (where SENT exists too): they may succeed there.
MAY_RETURN = {"os-system-host", "subprocess-run-host", "os-popen-host", "ctypes-system", "host-file-write",
              "proc-self-environ-secret", "os-environ-secret"}
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
    expect(lines.length).toBeGreaterThanOrEqual(30);
    expect(lines.filter((l) => l.startsWith('ESCAPED'))).toEqual([]);
    expect(readdirSync(sentinel)).toEqual([]);
    expect(connections).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    // The engine is healthy afterwards.
    const again = await sb.run('python3 -c "print(6 * 7)"', { timeoutMs: 240_000 });
    expect(again.stdout).toBe('42\n');
  }, 600_000);
});
