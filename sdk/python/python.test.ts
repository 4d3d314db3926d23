import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const env = { ...process.env, SANDGLASS_CLI: join(root, 'bin', 'sandglass.mjs') };

function python(args: string[], cwd = root) {
  return spawnSync('python3', args, { cwd, env, encoding: 'utf8', timeout: 240_000 });
}

describe('Python SDK (host python3, real engine over sandglass rpc)', () => {
  it('passes its unittest suite', () => {
    const r = python(['-m', 'unittest', 'discover', '-s', 'sdk/python/tests', '-v']);
    expect(r.stderr).toMatch(/\nOK\n?$/);
    expect(r.status).toBe(0);
  }, 240_000);

  it('installs offline with pip into a fresh venv and runs from there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-py-'));
    try {
      expect(python(['-m', 'venv', join(dir, 'venv')]).status).toBe(0);
      const py = join(dir, 'venv', 'bin', 'python');
      const install = spawnSync(
        py,
        ['-m', 'pip', 'install', '--no-index', '--disable-pip-version-check', './sdk/python'],
        { cwd: root, env, encoding: 'utf8', timeout: 120_000 },
      );
      expect(install.stdout).toContain('Successfully installed sandglass-0.1.0');
      const script = [
        'from sandglass import Sandbox',
        'with Sandbox.create() as sb:',
        '    print(sb.run("echo installed").stdout, end="")',
      ].join('\n');
      const run = spawnSync(py, ['-c', script], {
        cwd: dir,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.stdout).toBe('installed\n');
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
