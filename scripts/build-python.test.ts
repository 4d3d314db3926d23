/**
 * setup.mjs rebuilds resources/python when a build input changes: every
 * source the realm bundle takes must be among them, or a stale snapshot keeps
 * its driver compiled under another key and every interpreter boot compiles
 * it again.
 */
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PYTHON_BUILD_INPUTS } from './build-python.mjs';

interface Metafile {
  inputs: Record<string, unknown>;
}
interface EsbuildLike {
  buildSync(opts: Record<string, unknown>): { metafile?: Metafile };
}

const root = fileURLToPath(new URL('..', import.meta.url));

describe('python runtime build inputs', () => {
  it('cover every source of the realm bundle', () => {
    const esbuild = createRequire(import.meta.url)('esbuild') as EsbuildLike;
    const r = esbuild.buildSync({
      entryPoints: [`${root}src-worker/python/realm/index.ts`],
      bundle: true,
      platform: 'neutral',
      format: 'iife',
      loader: { '.py': 'text' },
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(r.metafile?.inputs ?? {}).map((p) => relative(root, `${root}${p}`));
    expect(inputs.length).toBeGreaterThan(5);
    const uncovered = inputs.filter(
      (p) => !PYTHON_BUILD_INPUTS.some((e) => p === e || p.startsWith(`${e}/`)),
    );
    expect(uncovered).toEqual([]);
  });
});
