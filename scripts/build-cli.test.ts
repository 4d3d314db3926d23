import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, builtCliFingerprint, cliSourcesFingerprint } from './build-cli.mjs';
import { fingerprint } from './fingerprint.mjs';

const repo = path.resolve(import.meta.dirname, '..');
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandglass-cli-build-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('fingerprint', () => {
  it('changes when a file is edited, added or removed, not for skipped trees', () => {
    const root = path.join(tmp, 'fp');
    fs.mkdirSync(path.join(root, 'src/deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/a.ts'), 'a');
    fs.writeFileSync(path.join(root, 'src/deep/b.ts'), 'b');
    const first = fingerprint(root, ['src']);
    expect(fingerprint(root, ['src'])).toBe(first);
    fs.mkdirSync(path.join(root, 'src/node_modules'));
    fs.writeFileSync(path.join(root, 'src/node_modules/x.js'), 'ignored');
    expect(fingerprint(root, ['src'])).toBe(first);
    fs.writeFileSync(path.join(root, 'src/deep/b.ts'), 'bb');
    const edited = fingerprint(root, ['src']);
    expect(edited).not.toBe(first);
    fs.writeFileSync(path.join(root, 'src/c.ts'), '');
    const added = fingerprint(root, ['src']);
    expect(added).not.toBe(edited);
    fs.rmSync(path.join(root, 'src/c.ts'));
    expect(fingerprint(root, ['src'])).not.toBe(added);
  });
});

/** A throwaway checkout: copies of the sources, links to the installed parts. */
function makeCheckout(): string {
  const root = path.join(tmp, 'checkout');
  for (const dir of ['src-worker', 'sdk/typescript'])
    fs.cpSync(path.join(repo, dir), path.join(root, dir), { recursive: true });
  for (const f of ['scripts/build-cli.mjs', 'scripts/fingerprint.mjs', 'bin/sandglass.mjs']) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.copyFileSync(path.join(repo, f), path.join(root, f));
  }
  for (const l of ['node_modules', 'resources', 'package.json', 'tsconfig.json'])
    fs.symlinkSync(path.join(repo, l), path.join(root, l));
  return root;
}

function sandglass(root: string, ...args: string[]): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/sandglass.mjs'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return { stdout: r.stdout, stderr: r.stderr };
}

describe('the compiled CLI', () => {
  it('runs from out/cli when fresh, from the sources with a note when missing or stale', async () => {
    const root = makeCheckout();
    const missing = sandglass(root, 'run', '-c', 'echo hi');
    expect(missing.stdout).toBe('hi\n');
    expect(missing.stderr).toMatch(/^sandglass: out\/cli is missing; running from sources/);

    await buildCli(root);
    expect(builtCliFingerprint(root)).toBe(cliSourcesFingerprint(root));
    expect(fs.existsSync(path.join(root, 'out/cli/main.js'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'out/cli/workerEntry.js'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'out/cli/sdk.js'))).toBe(true);
    const fresh = sandglass(root, 'run', '-c', 'echo hi | cat; echo $((6*7))');
    expect(fresh).toEqual({ stdout: 'hi\n42\n', stderr: '' });

    fs.appendFileSync(path.join(root, 'src-worker/cli/main.ts'), '\n// edited\n');
    const stale = sandglass(root, 'run', '-c', 'echo hi');
    expect(stale.stdout).toBe('hi\n');
    expect(stale.stderr).toMatch(/^sandglass: out\/cli is stale; running from sources/);
  }, 120_000);
});
