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
//    The zip also holds the `tzdata` package (as on PyPI) made from the
//    system's /usr/share/zoneinfo (Debian's tzdata), so `zoneinfo` works.
//  - pyodide.js, pyodide.asm.wasm, pyodide-lock.json: copied.
//  - realm.js: src-worker/python/realm/ bundled into one script (esbuild), as the
//    engine bundles it from TypeScript sources (python/resources.ts).
//  - snapshot.bin: a memory snapshot of an interpreter booted in the realm
//    (stdlib zip above, sealed, driver modules imported). Interpreters start
//    from it instead of running CPython's initialisation; it is tied to this
//    build's wasm and zip. It is made before any sandbox code exists, from
//    nothing but the files above, so it holds no host object or path.
//  - <script>.v8cache: V8's code cache of the realm scripts as that boot left
//    them, so an engine's first interpreter need not compile Pyodide's
//    JavaScript (V8 ignores a cache made by another version or flags).
//  - requests and its pure-Python dependencies from Debian's packages
//    (python-packages.mjs), added to python_stdlib.zip the same way.
// SANDGLASS_PYTHON_DIR builds into another directory.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pythonPackageFiles } from './python-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const pythonOutDir = process.env.SANDGLASS_PYTHON_DIR
  ? path.resolve(process.env.SANDGLASS_PYTHON_DIR)
  : path.join(root, 'resources', 'python');
const pyodideDir = path.join(root, 'node_modules', 'pyodide');

/**
 * What resources/python is made from (setup rebuilds it when their fingerprint
 * changes): Pyodide, this script, and every source the realm bundle takes
 * (build-python.test.ts checks the bundle's inputs are all here).
 */
export const PYTHON_BUILD_INPUTS = [
  'node_modules/pyodide/package.json',
  'scripts/build-python.mjs',
  'scripts/python-packages.mjs',
  'src-worker/python/realm',
  'src-worker/channel/layout.ts',
  'src-worker/channel/client.ts',
  'src-worker/base/syscalls.ts',
];

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
  // A memory snapshot is copied into the heap by the realm, which skips its zero pages (realm/heapRestore.ts).
  ['return Module.HEAP8.set(t),l}', 'return sandglassRestoreHeap(Module.HEAP8,t,wasmMemory),l}', 1],
  // Emscripten compiles a tiny wasm module per JS function it puts in the table: one per signature
  // is enough, compiled once per worker thread (realm/wasmHelpers.ts).
  [
    'var module=new WebAssembly.Module(bytes);var instance=new WebAssembly.Instance(module,{e:{f:func}})',
    'var module=sandglassSigModule(sig,bytes);var instance=new WebAssembly.Instance(module,{e:{f:func}})',
    1,
  ],
  // Lazy GOT: Emscripten's dynamic linker gives every one of the main module's ~8,500 exports a
  // WebAssembly.Global (and every exported function a table slot) at each instantiation, though
  // only the ~280 the module imports as GOT.func (and whatever a dlopen'd side module asks for)
  // are ever read: a third of an interpreter's boot. Bind the entries that exist when the main
  // module is instantiated, and any later one when it is first asked for, with the same value
  // the eager loop gave it (so a side module still sees the main module's definition first).
  [
    'var GOT={};var GOTHandler={get(weakImports,symName){var rtn=GOT[symName];if(!rtn){rtn=GOT[symName]=new WebAssembly.Global({value:"i32",mutable:true},-1)}',
    'var GOT={};var GOTMainExports;var GOTHandler={get(weakImports,symName){var rtn=GOT[symName];if(!rtn){rtn=GOT[symName]=new WebAssembly.Global({value:"i32",mutable:true},-1);if(GOTMainExports&&Object.hasOwn(GOTMainExports,symName))updateGOT({[symName]:GOTMainExports[symName]})}',
    1,
  ],
  [
    'updateGOT(origExports);LDSO.init();',
    'GOTMainExports=origExports;var gotBound={};for(var symName in GOT){if(Object.hasOwn(origExports,symName))gotBound[symName]=origExports[symName]}updateGOT(gotBound);LDSO.init();',
    1,
  ],
  // The merge of a module's exports into the import table (the global symbol table) without an
  // entries array and a closure per export. The main module's ~8,500 are not copied at all at
  // every boot: the table inherits them (its prototype becomes the exports object), so a lookup
  // finds a JS import first and the main module's export next, as the copy gave; only imports
  // defined by no JS function (stubs) and the main/__main_argc_argv alias are set one by one.
  [
    'var mergeLibSymbols=(exports,libName)=>{for(var[sym,exp]of Object.entries(exports)){const setImport=target=>{if(!isSymbolDefined(target)){wasmImports[target]=exp}};setImport(sym);const main_alias="__main_argc_argv";if(sym=="main"){setImport(main_alias)}if(sym==main_alias){setImport("main")}}};',
    'var mergeLibSymbols=(exports,libName)=>{if(libName=="main"&&Object.getPrototypeOf(exports)===null&&Object.getPrototypeOf(wasmImports)===Object.prototype&&!Object.hasOwn(exports,"main")){for(var sym of Object.keys(wasmImports)){if(!isSymbolDefined(sym)&&Object.hasOwn(exports,sym))wasmImports[sym]=exports[sym]}if(Object.hasOwn(exports,"__main_argc_argv")&&!isSymbolDefined("main"))wasmImports["main"]=exports["__main_argc_argv"];Object.setPrototypeOf(wasmImports,exports);return}for(var sym of Object.keys(exports)){var exp=exports[sym];if(!isSymbolDefined(sym)){wasmImports[sym]=exp}if(sym=="main"&&!isSymbolDefined("__main_argc_argv")){wasmImports["__main_argc_argv"]=exp}if(sym=="__main_argc_argv"&&!isSymbolDefined("main")){wasmImports["main"]=exp}}};',
    1,
  ],
  // Finding whether a function already has a table slot scans all ~8,700 slots (a JS function
  // object made for each) the first time, and the first asker is the boot's binding of the ~280
  // GOT.func imports that are JS library functions: a function of JS source is never a table
  // element (a table holds wasm functions; addFunction puts a wrapper there and records the
  // original), so for one the scan can find nothing. Scan when a wasm (native) function is first
  // asked for, as before; the answers, and so the table layout, are the same.
  [
    'var getFunctionAddress=func=>{if(!functionsInTableMap){functionsInTableMap=new WeakMap;updateTableMap(0,wasmTable.length)}return functionsInTableMap.get(func)||0};',
    'var functionsInTableScanned=false;var getFunctionAddress=func=>{if(!functionsInTableScanned&&(typeof func!="function"||/\\{\\s*\\[native code\\]\\s*\\}$/.test(Function.prototype.toString.call(func)))){functionsInTableScanned=true;functionsInTableMap??=new WeakMap;updateTableMap(0,wasmTable.length)}functionsInTableMap??=new WeakMap;return functionsInTableMap.get(func)||0};',
    1,
  ],
  // Wrapping a few exports of the main module copied all ~8,500 of them into a new object at
  // every boot; an object inheriting from the exports reads the same (only property reads use it).
  [
    'function applySignatureConversions(wasmExports){wasmExports=Object.assign({},wasmExports);',
    'function applySignatureConversions(wasmExports){wasmExports=Object.create(wasmExports);',
    1,
  ],
  // dlsym's index of a symbol among a library's: the main module's table inherits its exports
  // (mergeLibSymbols above), which for...in enumerates and Object.keys does not.
  [
    'newSymIndex=Object.keys(lib.exports).indexOf(symbol);',
    'newSymIndex=-1;var symAt=0;for(var symKey in lib.exports){if(symKey===symbol){newSymIndex=symAt;break}symAt++}',
    1,
  ],
  // system(3) goes to the realm (which runs it through the kernel), never to a host shell.
  [
    'function __emscripten_system(command){command>>>=0;',
    'function __emscripten_system(command){command>>>=0;if(typeof sandglassSystem=="function")return sandglassSystem(command?UTF8ToString(command):null);return command?-52:0;',
    1,
  ],
  // A zone at UTC+0 is named "UTC", as glibc names it (time.tzname, %Z), not "UTC-0000".
  [
    'return`UTC${sign}${hours}${minutes}`};',
    'return timezoneOffset==0?"UTC":`UTC${sign}${hours}${minutes}`};',
    1,
  ],
  // File names that are not UTF-8 round-trip as CPython's surrogateescape does: C strings are
  // decoded by the realm's TextDecoder (an invalid byte b becomes U+DC00+b, realm/prelude.ts), short
  // ones too, and such a lone surrogate is written back to C memory as the byte it stands for.
  ['if(endPtr-idx>16&&heapOrArray.buffer&&UTF8Decoder)', 'if(heapOrArray.buffer&&UTF8Decoder)', 1],
  [
    'var u=str.codePointAt(i);',
    'var u=str.codePointAt(i);if(u>=56448&&u<=56575){if(outIdx>=endIdx)break;heap[outIdx++>>>0]=u-56320;continue}',
    1,
  ],
  [
    'else if(c>=55296&&c<=57343){len+=4;++i}',
    'else if(c>=56448&&c<=56575){len+=1}else if(c>=55296&&c<=57343){len+=4;++i}',
    1,
  ],
];

/** Source rewrites of pyodide.js (the loader). */
const LOADER_REWRITES = [
  // One compiled module for all interpreters: the realm is handed it (addModule), no bytes to read and compile.
  [
    'let{binary:t,response:n}=R(e+"pyodide.asm.wasm")',
    'let{binary:t,response:n}=globalThis.sandglassWasmModule?{}:R(e+"pyodide.asm.wasm")',
    1,
  ],
  [
    'l=await WebAssembly.instantiate(await t,a)',
    'l=globalThis.sandglassWasmModule?{module:sandglassWasmModule,instance:await WebAssembly.instantiate(sandglassWasmModule,a)}:await WebAssembly.instantiate(await t,a)',
    1,
  ],
  // The stdlib zip stays the engine's one shared buffer: MEMFS keeps a view, copied on write (realm/sharedFile.ts).
  [
    'n.FS.writeFile(`/lib/python${o}${a}.zip`,r)',
    'sandglassWriteSharedFile(n.FS,`/lib/python${o}${a}.zip`,r)',
    1,
  ],
];

function rewrite(text, rewrites, file) {
  let out = text;
  for (const [from, to, count] of rewrites) {
    const n = out.split(from).length - 1;
    if (n !== count)
      throw new Error(
        `build-python: expected ${count} of ${JSON.stringify(from)} in ${file}, found ${n}`,
      );
    out = out.split(from).join(to);
  }
  return out;
}

/** The engine's own realm code (bundling, the realm context), so the build boots exactly as a worker does. */
async function realmModules() {
  const { tsImport } = await import('tsx/esm/api');
  const [resources, context] = await Promise.all([
    tsImport('../src-worker/python/resources.ts', import.meta.url),
    tsImport('../src-worker/python/node/realmContext.ts', import.meta.url),
  ]);
  return {
    bundleRealm: resources.bundleRealm,
    realmCodeKey: resources.realmCodeKey,
    codeCacheSuffix: resources.CODE_CACHE_SUFFIX,
    snapshotPageMap: resources.snapshotPageMap,
    snapshotFile: resources.SNAPSHOT_FILE,
    snapshotPagesFile: resources.SNAPSHOT_PAGES_FILE,
    compileRealm: context.compileRealm,
  };
}

/** Python run by a build-time Pyodide (trusted, plain Node): stock zip in, zip with .pyc out. */
const COMPILE_STDLIB = `
import importlib.util, json, marshal, os, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
src = zipfile.ZipFile("/build/in.zip")
out = zipfile.ZipFile("/build/out.zip", "w")
# tzdata as the PyPI package lays it out: a package per zone directory, the zone files as resources.
tz = json.load(open("/build/tz.json"))
tzfiles = {"tzdata/__init__.py": ('IANA_VERSION = "%s"\\n' % tz["version"]).encode(), "tzdata/zones": "\\n".join(tz["zones"]).encode() + b"\\n"}
for zone in tz["zones"]:
    parts = zone.split("/")
    for i in range(len(parts)):
        tzfiles.setdefault("/".join(["tzdata", "zoneinfo"] + parts[:i] + ["__init__.py"]), b"")
    tzfiles["tzdata/zoneinfo/" + zone] = open("/build/tz/" + zone, "rb").read()
for name, data in sorted(tzfiles.items()):
    out.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data, compress_type=zipfile.ZIP_DEFLATED)
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

/** Zone files of the system's time zone database (Debian's tzdata), name → bytes. */
function zoneFiles(dir = '/usr/share/zoneinfo') {
  const zones = new Map();
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel))) {
      const name = rel ? `${rel}/${e}` : e;
      // posix/ and right/ repeat the database; posixrules is not a zone.
      if (!rel && (e === 'posix' || e === 'right' || e === 'posixrules')) continue;
      const st = fs.statSync(path.join(dir, name));
      if (st.isDirectory()) walk(name);
      else if (st.isFile()) {
        const bytes = fs.readFileSync(path.join(dir, name));
        if (bytes.subarray(0, 4).toString('latin1') === 'TZif') zones.set(name, bytes);
      }
    }
  };
  if (!fs.existsSync(dir)) {
    console.warn(`build-python: no ${dir} (install tzdata): zoneinfo will find no zones`);
    return { version: 'none', zones };
  }
  walk('');
  const zi = path.join(dir, 'tzdata.zi');
  const m = fs.existsSync(zi) ? /^# version (\S+)/.exec(fs.readFileSync(zi, 'utf8')) : null;
  return { version: m ? m[1] : 'unknown', zones };
}

async function compileStdlib(outFile, packages) {
  const { loadPyodide } = await import(path.join(pyodideDir, 'pyodide.mjs'));
  const py = await loadPyodide({ indexURL: pyodideDir + '/', stdout: () => {}, stderr: () => {} });
  py.FS.mkdirTree('/build/site');
  for (const [rel, data] of packages) {
    py.FS.mkdirTree(path.posix.dirname(`/build/site/${rel}`));
    py.FS.writeFile(`/build/site/${rel}`, data);
  }
  py.FS.writeFile('/build/in.zip', fs.readFileSync(path.join(pyodideDir, 'python_stdlib.zip')));
  const tz = zoneFiles();
  for (const [name, bytes] of tz.zones) {
    py.FS.mkdirTree(path.posix.dirname(`/build/tz/${name}`));
    py.FS.writeFile(`/build/tz/${name}`, bytes);
  }
  py.FS.writeFile(
    '/build/tz.json',
    JSON.stringify({ version: tz.version, zones: [...tz.zones.keys()].sort() }),
  );
  const n = py.runPython(COMPILE_STDLIB);
  fs.writeFileSync(outFile, py.FS.readFile('/build/out.zip'));
  return n;
}

/**
 * Boot an interpreter in a realm like the engine's (python/node/realmContext.ts:
 * null-prototype global, no code generation from strings) from the files just
 * built, and save its memory. Nothing else is handed in. Then boot a second
 * realm from that snapshot, as an engine's worker does, and save V8's code
 * cache of the scripts as both boots left them.
 */
async function makeSnapshot(outDir, code) {
  const crypto = await import('node:crypto');
  const scripts = ['realm.js', 'pyodide.asm.js', 'pyodide.js'].map((name) => ({
    name,
    source: fs.readFileSync(path.join(outDir, name), 'utf8'),
  }));
  const compiled = code.compileRealm(scripts);
  const shared = (bytes) => {
    const sab = new SharedArrayBuffer(bytes.length);
    new Uint8Array(sab).set(bytes);
    return sab;
  };
  const files = ['pyodide.asm.wasm', 'python_stdlib.zip'].map((f) => [
    `/pyodide/${f}`,
    shared(fs.readFileSync(path.join(outDir, f))),
  ]);
  const lock = fs.readFileSync(path.join(outDir, 'pyodide-lock.json'), 'utf8');
  const codeKey = code.realmCodeKey(scripts[0].source);
  const boot = async (realm, config) => {
    for (const [name, sab] of files) realm.addFile(name, sab);
    const seed = new SharedArrayBuffer(4096);
    crypto.randomFillSync(new Uint8Array(seed));
    await realm.boot(
      seed,
      new SharedArrayBuffer(4),
      JSON.stringify({ ...SNAPSHOT_BOOT, lock, codeKey, ...config }),
    );
  };
  const first = compiled.load();
  await boot(first.realm, { makeSnapshot: true });
  const bytes = first.realm.makeSnapshot();
  fs.writeFileSync(path.join(outDir, 'snapshot.bin'), bytes);
  // An engine's interpreter boots from the snapshot: its code (the restore) goes in the cache too.
  files.push([code.snapshotFile, shared(bytes)]);
  files.push([code.snapshotPagesFile, code.snapshotPageMap(bytes)]);
  const second = compiled.load();
  await boot(second.realm, {
    snapshot: code.snapshotFile,
    snapshotPages: code.snapshotPagesFile,
  });
  // V8's code cache of the scripts as booted, so an engine's first interpreter need not compile them.
  second
    .codeCache()
    .forEach((cache, i) =>
      fs.writeFileSync(path.join(outDir, scripts[i].name + code.codeCacheSuffix), cache),
    );
  return bytes.length;
}

/** The boot configuration of snapshot and engine alike (python/node/pythonWorker.ts reads it from the manifest). */
const SNAPSHOT_BOOT = {
  stdlib: '/pyodide/python_stdlib.zip',
  home: '/home/user',
};

export async function buildPython({ quiet = false, outDir = pythonOutDir } = {}) {
  const t0 = Date.now();
  fs.mkdirSync(outDir, { recursive: true });
  const version = JSON.parse(
    fs.readFileSync(path.join(pyodideDir, 'package.json'), 'utf8'),
  ).version;
  const read = (f) => fs.readFileSync(path.join(pyodideDir, f), 'utf8');
  fs.writeFileSync(
    path.join(outDir, 'pyodide.asm.js'),
    rewrite(read('pyodide.asm.mjs'), ASM_REWRITES, 'pyodide.asm.mjs'),
  );
  fs.writeFileSync(
    path.join(outDir, 'pyodide.js'),
    rewrite(read('pyodide.js'), LOADER_REWRITES, 'pyodide.js'),
  );
  for (const f of ['pyodide.asm.wasm', 'pyodide-lock.json'])
    fs.copyFileSync(path.join(pyodideDir, f), path.join(outDir, f));
  const { files, versions } = pythonPackageFiles();
  const compiled = await compileStdlib(path.join(outDir, 'python_stdlib.zip'), files);
  const realmCode = await realmModules();
  fs.writeFileSync(path.join(outDir, 'realm.js'), realmCode.bundleRealm());
  const snapshotBytes = await makeSnapshot(outDir, realmCode);
  fs.writeFileSync(
    path.join(outDir, 'manifest.json'),
    JSON.stringify(
      {
        pyodide: version,
        pyc: compiled,
        packages: versions,
        snapshot: { file: 'snapshot.bin', bytes: snapshotBytes, boot: SNAPSHOT_BOOT },
        builtAt: new Date().toISOString(),
      },
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
