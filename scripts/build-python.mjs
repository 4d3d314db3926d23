#!/usr/bin/env node
// Builds resources/python/: what a python3 process needs at run time.
//  - pyodide.asm.js: Pyodide's Emscripten module (an ES module) turned into a
//    plain script for the interpreter's realm, with the few places that would
//    reach for Node (environment sniffing, randomness through `os.system`)
//    rewritten. Every rewrite asserts its pattern, so a Pyodide upgrade that
//    moves them fails the build instead of silently weakening the sandbox.
//  - python_stdlib.zip: Pyodide's standard library with every module also
//    compiled to an unchecked hash-based .pyc beside its .py (the npm package
//    ships sources only, and compiling ~200 modules at each start is most of
//    a cold start). The .py files stay for tracebacks.
//  - pyodide.js, pyodide.asm.wasm, pyodide-lock.json: copied.
//  - realm.js: src-worker/python/realm/ bundled into one script (esbuild).
//  - requests and its pure-Python dependencies from Debian's packages
//    (python-packages.mjs), added to python_stdlib.zip the same way.
// SANDGLASS_PYTHON_DIR builds into another directory.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { pythonPackageFiles } from './python-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const pythonOutDir = process.env.SANDGLASS_PYTHON_DIR
  ? path.resolve(process.env.SANDGLASS_PYTHON_DIR)
  : path.join(root, 'resources', 'python');
const pyodideDir = path.join(root, 'node_modules', 'pyodide');

/** Source rewrites of pyodide.asm.mjs: [pattern, replacement, expected count]. */
const ASM_REWRITES = [
  ['import.meta.url', '"/pyodide/pyodide.asm.mjs"', 3],
  ['export default _createPyodideModule;', '', 1],
  // No Node in the realm: never take Node's paths, whatever globals appear later.
  [
    'var ENVIRONMENT_IS_NODE=globalThis.process?.versions?.node&&globalThis.process?.type!="renderer";',
    'var ENVIRONMENT_IS_NODE=false;',
    1,
  ],
  // The "shell" environment draws randomness through os.system; use the realm's crypto (kernel /dev/urandom).
  [
    'var initRandomFill=()=>{',
    'var initRandomFill=()=>{return view=>crypto.getRandomValues(view);',
    1,
  ],
  // system(3) goes to the realm (which runs it through the kernel), never to a host shell.
  [
    'function __emscripten_system(command){command>>>=0;',
    'function __emscripten_system(command){command>>>=0;if(typeof sandglassSystem=="function")return sandglassSystem(command?UTF8ToString(command):null);return command?-52:0;',
    1,
  ],
];

function rewriteAsm(text) {
  let out = text;
  for (const [from, to, count] of ASM_REWRITES) {
    const n = out.split(from).length - 1;
    if (n !== count)
      throw new Error(
        `build-python: expected ${count} of ${JSON.stringify(from)} in pyodide.asm.mjs, found ${n}`,
      );
    out = out.split(from).join(to);
  }
  return out;
}

/** Bundle the realm's code (TypeScript + driver .py as text) into one script. */
export function bundleRealm(outfile) {
  const esbuild = createRequire(import.meta.url)('esbuild');
  esbuild.buildSync({
    entryPoints: [path.join(root, 'src-worker', 'python', 'realm', 'index.ts')],
    bundle: true,
    platform: 'neutral',
    format: 'iife',
    target: 'es2022',
    loader: { '.py': 'text' },
    outfile,
    logLevel: 'silent',
  });
}

/** Python run by a build-time Pyodide (trusted, plain Node): stock zip in, zip with .pyc out. */
const COMPILE_STDLIB = `
import importlib.util, marshal, os, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
src = zipfile.ZipFile("/build/in.zip")
out = zipfile.ZipFile("/build/out.zip", "w")
n = 0
def add(name, data, info=None):
    global n
    out.writestr(info or name, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)
    if name.endswith(".py"):
        try:
            code = compile(data, "/lib/python314.zip/" + name, "exec", dont_inherit=True)
        except SyntaxError:
            return
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
        out.writestr(name + "c", bytes(pyc), compress_type=zipfile.ZIP_STORED)
        n += 1
for info in src.infolist():
    add(info.filename, src.read(info), info)
# Bundled packages (scripts/python-packages.mjs), at the zip's root like the stdlib.
for top, _, names in sorted(os.walk("/build/site")):
    for f in sorted(names):
        full = os.path.join(top, f)
        with open(full, "rb") as fh:
            add(os.path.relpath(full, "/build/site"), fh.read())
out.close()
n
`;

async function compileStdlib(outFile, packages) {
  const { loadPyodide } = await import(path.join(pyodideDir, 'pyodide.mjs'));
  const py = await loadPyodide({ indexURL: pyodideDir + '/', stdout: () => {}, stderr: () => {} });
  py.FS.mkdirTree('/build/site');
  for (const [rel, data] of packages) {
    py.FS.mkdirTree(path.posix.dirname(`/build/site/${rel}`));
    py.FS.writeFile(`/build/site/${rel}`, data);
  }
  py.FS.writeFile('/build/in.zip', fs.readFileSync(path.join(pyodideDir, 'python_stdlib.zip')));
  const n = py.runPython(COMPILE_STDLIB);
  fs.writeFileSync(outFile, py.FS.readFile('/build/out.zip'));
  return n;
}

export async function buildPython({ quiet = false, outDir = pythonOutDir } = {}) {
  const t0 = Date.now();
  fs.mkdirSync(outDir, { recursive: true });
  const version = JSON.parse(
    fs.readFileSync(path.join(pyodideDir, 'package.json'), 'utf8'),
  ).version;
  const asm = rewriteAsm(fs.readFileSync(path.join(pyodideDir, 'pyodide.asm.mjs'), 'utf8'));
  fs.writeFileSync(path.join(outDir, 'pyodide.asm.js'), asm);
  for (const f of ['pyodide.js', 'pyodide.asm.wasm', 'pyodide-lock.json'])
    fs.copyFileSync(path.join(pyodideDir, f), path.join(outDir, f));
  const { files, versions } = pythonPackageFiles();
  const compiled = await compileStdlib(path.join(outDir, 'python_stdlib.zip'), files);
  bundleRealm(path.join(outDir, 'realm.js'));
  fs.writeFileSync(
    path.join(outDir, 'manifest.json'),
    JSON.stringify(
      { pyodide: version, pyc: compiled, packages: versions, builtAt: new Date().toISOString() },
      null,
      2,
    ) + '\n',
  );
  if (!quiet) console.log(`build-python: ${outDir} (pyodide ${version}) in ${Date.now() - t0} ms`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildPython().catch((e) => {
    console.error(e.stack ?? String(e));
    process.exit(1);
  });
}
