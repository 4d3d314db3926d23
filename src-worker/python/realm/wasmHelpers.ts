/**
 * The tiny wasm modules a realm compiles while it boots (Emscripten's one per
 * signature of the JS functions it puts in the table, the restore's zero
 * scanner), by key. Compiling them took ~10-17 ms of every boot; a worker
 * takes them from its first realm once booted (before any user code ran)
 * and hands clones to each later realm (`adoptHelper`), as it does the main
 * module. A key names exactly one byte string (a signature fully determines
 * Emscripten's wrapper module), so a handed-in module is the one the realm
 * would compile.
 */
const helpers = new Map<string, WebAssembly.Module>();

/** The module for `key`: handed in, compiled earlier in this realm, or compiled from `bytes` now. */
export function helperModule(key: string, bytes: Uint8Array): WebAssembly.Module {
  let m = helpers.get(key);
  if (!m) {
    m = new WebAssembly.Module(bytes);
    helpers.set(key, m);
  }
  return m;
}

/** A module the worker hands in (a clone of one an earlier realm compiled): it gets this realm's prototype. */
export function adoptHelper(key: string, module: WebAssembly.Module): void {
  Object.setPrototypeOf(module, WebAssembly.Module.prototype);
  helpers.set(String(key), module);
}

/** Keys of the modules this realm holds, one per line (a primitive, for the worker). */
export function helperKeys(): string {
  return [...helpers.keys()].join('\n');
}

export function helperOf(key: string): WebAssembly.Module | undefined {
  return helpers.get(String(key));
}
