/**
 * The realm itself, without Pyodide: hostile JavaScript evaluated in it
 * finds no Node global, cannot generate code from strings or import
 * modules, and a SharedArrayBuffer adopted from the host no longer leads
 * to the host's Function constructor.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compileRealm, createRealmContext } from './realmContext.js';

const run = (ctx: vm.Context, code: string): unknown => new vm.Script(code).runInContext(ctx);

describe('python realm context', () => {
  it('has no Node globals', () => {
    const ctx = createRealmContext();
    for (const name of [
      'process',
      'require',
      'Buffer',
      'global',
      'setTimeout',
      'fetch',
      'module',
      'WebSocket',
    ])
      expect(run(ctx, `typeof ${name}`), name).toBe('undefined');
  });

  it('refuses code generation from strings', () => {
    const ctx = createRealmContext();
    for (const code of [
      'eval("1")',
      'Function("return 1")()',
      'this.constructor.constructor("return process")()',
      '[].map.constructor("return process")()',
      '(async () => {}).constructor("return 1")',
      '(function*(){}).constructor("yield 1")',
    ]) {
      expect(() => run(ctx, code), code).toThrow(/Code generation from strings disallowed/);
    }
  });

  it('the global object and its lookups stay in the realm', () => {
    const ctx = createRealmContext();
    expect(
      run(ctx, 'Object.getPrototypeOf(Object.getPrototypeOf(globalThis)) === Object.prototype'),
    ).toBe(true);
    expect(run(ctx, 'globalThis.constructor.constructor === Function')).toBe(true);
    expect(
      run(ctx, 'Object.getOwnPropertyDescriptor(globalThis, "Object").constructor === Object'),
    ).toBe(true);
    // Nothing the realm can name is the host's Function.
    const hostFunction = Function;
    expect(run(ctx, 'globalThis.constructor.constructor')).not.toBe(hostFunction);
  });

  it('dynamic import() rejects', async () => {
    const ctx = createRealmContext();
    const p = run(
      ctx,
      'import("node:child_process").then(() => "imported", (e) => "refused: " + e.code)',
    );
    await expect(p).resolves.toMatch(/^refused/);
  });

  it('an adopted SharedArrayBuffer leads back only to the realm', () => {
    const ctx = createRealmContext();
    const adopt = run(
      ctx,
      '(sab) => { Object.setPrototypeOf(sab, SharedArrayBuffer.prototype); return sab.constructor.constructor === Function; }',
    ) as (sab: SharedArrayBuffer) => boolean;
    expect(adopt(new SharedArrayBuffer(8))).toBe(true);
  });

  it('says whether every script compiled from a code cache V8 took', () => {
    const source =
      'var sandglassRealm = { f: () => [1, 2].map((x) => x * 2) }; sandglassRealm.f();';
    const fresh = compileRealm([{ name: 'a.js', source }]);
    expect(fresh.cached).toBe(false);
    const loaded = fresh.load();
    const [cache] = loaded.codeCache();
    expect(cache?.length).toBeGreaterThan(0);
    expect(compileRealm([{ name: 'a.js', source, ...(cache ? { cache } : {}) }]).cached).toBe(true);
    // A cache of another source is refused: the scripts compile from source.
    const other = `${source} void 0;`;
    expect(
      compileRealm([{ name: 'a.js', source: other, ...(cache ? { cache } : {}) }]).cached,
    ).toBe(false);
  });
});
