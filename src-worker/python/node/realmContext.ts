/**
 * The interpreter's JS realm: a `node:vm` context made from a null-prototype
 * object, so a lookup on its global that misses falls through to the
 * context's own builtins, never to an object of the creating realm; with
 * code generation from strings disabled (no eval, no `Function(...)`), and
 * scripts compiled without an `importModuleDynamically` handler, so
 * `import()` inside rejects. Only text, primitives and SharedArrayBuffers
 * may be handed in (see docs/python.md).
 */
import vm from 'node:vm';

export function createRealmContext(): vm.Context {
  return vm.createContext(Object.create(null) as object, {
    name: 'sandglass-python',
    codeGeneration: { strings: false, wasm: true },
  });
}
