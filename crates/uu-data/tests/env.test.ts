/**
 * `env -i` in a real sandbox: the child gets exactly the environment env
 * built (no PWD slipped in by the kernel), yet still starts in env's cwd,
 * and a shell started that way sets PWD itself, as bash does. Needs the
 * built procutils and coreutils.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultProgramsDir, Sandbox } from '../../../src-worker/sandbox/sandbox.ts';

const built = existsSync(join(defaultProgramsDir(), 'procutils.wasm'));

describe.skipIf(!built)('env -i', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await Sandbox.create();
    await sb.mkdir('/tmp/work', { recursive: true });
    await sb.writeFile('/tmp/work/here.txt', 'x');
  });
  afterAll(() => sb.destroy());

  const run = async (script: string): Promise<string> => {
    const out: Uint8Array[] = [];
    const p = await sb.spawn('/bin/bash', ['bash', '-c', script], {
      cwd: '/tmp/work',
      stdout: (d) => out.push(d.slice()),
      stderr: (d) => out.push(d.slice()),
    });
    await p.wait();
    return Buffer.concat(out).toString();
  };

  it('passes an empty environment, PWD included', async () => {
    expect(await run('env -i env; echo end')).toBe('end\n');
    expect(await run('env -i A=1 env')).toBe('A=1\n');
  });

  it('keeps the cwd without PWD', async () => {
    expect(await run('env -i /usr/bin/pwd; env -i /usr/bin/ls')).toBe('/tmp/work\nhere.txt\n');
  });

  it('lets a shell set PWD itself', async () => {
    expect(await run("env -i /bin/bash -c 'echo $PWD'")).toBe('/tmp/work\n');
  });

  it('still hands PWD to children of an inherited environment', async () => {
    expect(await run('env A=1 printenv PWD')).toBe('/tmp/work\n');
  });
});
