import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { WorkerPool } from '../proc/node/workerPool.js';
import { Sandbox } from './sandbox.js';
import { fixtureProgramsDir, fixtureWasmPath } from './testPrograms.js';
import { runProgram } from './testUtil.js';

let sb: Sandbox;

beforeAll(async () => {
  sb = await Sandbox.create({ programsDir: fixtureProgramsDir() });
  await sb.warm();
});

afterAll(async () => {
  await sb.destroy();
  expect(await WorkerPool.drained()).toBe(true);
});

describe('spawning programs', () => {
  it('passes argv and captures stdout', async () => {
    const r = await runProgram(sb, '/usr/bin/fixture-echoargs', ['fixture-echoargs', 'a b', 'ü']);
    expect(r.stdout).toBe('fixture-echoargs\na b\nü\n');
    expect(r.status).toBe(0);
  });

  it('sets PWD to the cwd and passes env', async () => {
    const r = await runProgram(sb, '/usr/bin/fixture-printenv', ['printenv'], {
      env: { FOO: 'bar' },
      cwd: '/tmp',
    });
    expect(r.stdout).toContain('FOO=bar\n');
    expect(r.stdout).toContain('PWD=/tmp\n');
    expect(r.stdout).toContain('HOME=/home/user\n');
  });

  it('gives exactly the env asked for with replaceEnv', async () => {
    const r = await runProgram(sb, '/usr/bin/fixture-printenv', ['printenv'], {
      env: { FOO: 'bar' },
      replaceEnv: true,
      cwd: '/tmp',
    });
    expect(r.stdout).toContain('FOO=bar\n');
    expect(r.stdout).not.toContain('HOME=');
    expect(r.stdout).not.toContain('LANG=');
  });

  it('defaults cwd to the home directory', async () => {
    const r = await runProgram(sb, '/usr/bin/fixture-fs', ['fs', 'cwd']);
    expect(r.stdout).toBe('/home/user\n');
  });

  it('feeds stdin and streams it back', async () => {
    const input = 'x'.repeat(200_000) + '\nend\n';
    const r = await runProgram(sb, '/usr/bin/fixture-cat', ['cat'], { stdin: input });
    expect(r.stdout).toBe(input);
  });

  it('streams a piped stdin with back-pressure', async () => {
    let out = '';
    const p = await sb.spawn('/usr/bin/fixture-cat', ['cat'], {
      stdin: 'pipe',
      stdout: (d) => (out += new TextDecoder().decode(d)),
    });
    const chunk = 'y'.repeat(100_000);
    for (let i = 0; i < 5; i++) expect(await p.stdin?.write(chunk)).toBe(true);
    p.stdin?.close();
    expect((await p.wait()).status).toBe(0);
    expect(out.length).toBe(500_000);
  });

  it('reports exit codes and stderr', async () => {
    expect((await runProgram(sb, '/usr/bin/fixture-exit', ['exit', '42'])).status).toBe(42);
    const r = await runProgram(sb, '/usr/bin/fixture-stderr', ['e', 'oops', 'here']);
    expect(r.stderr).toBe('oops here\n');
    expect(r.stdout).toBe('out\n');
  });

  it('writes large output intact', async () => {
    const r = await runProgram(sb, '/usr/bin/fixture-bigout', ['bigout', '3000000']);
    expect(r.stdout.length).toBe(3_000_000);
    expect(r.stdout.startsWith('abcdefghijklmnopqrstuvwxy\nabc')).toBe(true);
  });

  it('gives clear errors for missing, non-executable and malformed programs', async () => {
    await expect(sb.spawn('/usr/bin/nope', ['nope'])).rejects.toMatchObject({ code: 'ENOENT' });
    await sb.writeFile('/tmp/noexec', readFileSync(fixtureWasmPath('fixture-echoargs')), {
      mode: 0o644,
    });
    await expect(sb.spawn('/tmp/noexec', ['x'])).rejects.toMatchObject({ code: 'EACCES' });
    await sb.writeFile('/usr/local/bin/text', 'just text\n', { mode: 0o755 });
    await expect(sb.spawn('/usr/local/bin/text', ['text'])).rejects.toMatchObject({
      code: 'ENOEXEC',
    });
    await sb.writeFile(
      '/usr/local/bin/bad',
      new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 99]),
      { mode: 0o755 },
    );
    await expect(sb.spawn('/usr/local/bin/bad', ['bad'])).rejects.toMatchObject({
      code: 'ENOEXEC',
    });
    await expect(sb.spawn('/tmp', ['tmp'])).rejects.toMatchObject({ code: 'EACCES' });
    // The sandbox keeps working.
    expect((await runProgram(sb, '/usr/bin/fixture-exit', ['exit', '3'])).status).toBe(3);
  });

  it('runs user wasm files and #! scripts', async () => {
    await sb.writeFile('/home/user/echo.wasm', readFileSync(fixtureWasmPath('fixture-echoargs')), {
      mode: 0o755,
    });
    const r = await runProgram(sb, '/home/user/echo.wasm', ['echo.wasm', 'hi']);
    expect(r.stdout).toBe('echo.wasm\nhi\n');
    await sb.writeFile('/home/user/script', '#!/usr/bin/fixture-echoargs -x\nbody\n', {
      mode: 0o755,
    });
    const s = await runProgram(sb, '/home/user/script', ['script', 'arg']);
    expect(s.stdout).toBe('/usr/bin/fixture-echoargs\n-x\n/home/user/script\narg\n');
  });

  it('refuses modules importing what their role does not grant', async () => {
    // fixture-session imports sandglass.session_next; as a user wasm file it gets role utility.
    await sb.writeFile('/tmp/sess.wasm', readFileSync(fixtureWasmPath('fixture-session')), {
      mode: 0o755,
    });
    const r = await runProgram(sb, '/tmp/sess.wasm', ['sess']);
    expect(r.status).toBe(126);
    expect(r.stderr).toMatch(/sandglass\.session_next, which role 'utility' does not grant/);
  });
});

describe('files through the API and programs', () => {
  it('sees program writes and API writes both ways', async () => {
    await sb.mkdir('/home/user/w');
    await sb.writeFile('/home/user/w/in.txt', 'from api');
    const r = await runProgram(
      sb,
      '/usr/bin/fixture-fs',
      ['fs', 'read', 'in.txt', 'write', 'out.txt', 'from wasm', 'mkdir', 'd', 'ls', '.'],
      { cwd: '/home/user/w' },
    );
    expect(r.stdout).toBe('from api\nd in.txt out.txt\n');
    expect(new TextDecoder().decode(await sb.readFile('/home/user/w/out.txt'))).toBe('from wasm');
    const st = await sb.stat('/home/user/w/out.txt');
    expect(st.kind).toBe('file');
    expect(st.uid).toBe(1000);
    expect((await sb.readDir('/home/user/w')).map((e) => e.name)).toEqual([
      'd',
      'in.txt',
      'out.txt',
    ]);
    await sb.rename('/home/user/w/out.txt', '/home/user/w/moved.txt');
    await sb.remove('/home/user/w', { recursive: true });
    await expect(sb.readFile('/home/user/w/moved.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads symlink targets', async () => {
    const r = await runProgram(sb, '/usr/bin/fixture-fs', [
      'fs',
      'symlink',
      'some/where',
      '/tmp/ln',
    ]);
    expect(r.status).toBe(0);
    expect(await sb.readLink('/tmp/ln')).toBe('some/where');
    await expect(sb.readLink('/etc/passwd')).rejects.toMatchObject({ code: 'EINVAL' });
  });

  it('reports errno from file operations', async () => {
    const r = await runProgram(sb, '/usr/bin/fixture-fs', [
      'fs',
      'read',
      '/nope',
      'mkdir',
      '/etc',
      'rmdir',
      '/home',
      'write',
      '/etc/passwd',
      'x',
      'excl',
      '/etc/hostname',
    ]);
    // ENOENT 44, EEXIST 20, EACCES 2 (user cannot touch /home or /etc), EEXIST 20
    expect(r.stdout).toBe('err read 44\nerr mkdir 20\nerr rmdir 2\nerr write 2\nerr excl 20\n');
    expect(r.status).toBe(1);
  });

  it('snapshots, restores and forks', async () => {
    await sb.writeFile('/tmp/v', 'one');
    const id = sb.snapshot();
    await sb.writeFile('/tmp/v', 'two');
    const fork = await sb.fork();
    sb.restore(id);
    expect(new TextDecoder().decode(await sb.readFile('/tmp/v'))).toBe('one');
    const r = await runProgram(fork, '/usr/bin/fixture-fs', ['fs', 'read', '/tmp/v']);
    expect(r.stdout).toBe('two\n');
    await fork.destroy();
  });

  it('emits change and process events', async () => {
    const events: string[] = [];
    const off = sb.onChange((e) =>
      events.push(e.type === 'file' ? `${e.change} ${e.path}` : e.type),
    );
    await runProgram(sb, '/usr/bin/fixture-fs', ['fs', 'write', '/tmp/evt', 'x', 'rm', '/tmp/evt']);
    off();
    expect(events).toContain('process-started');
    expect(events).toContain('created /tmp/evt');
    expect(events).toContain('deleted /tmp/evt');
    expect(events[events.length - 1]).toBe('process-exited');
  });

  it('reports stats', async () => {
    const p = await sb.spawn('/usr/bin/fixture-sleep', ['sleep', '300']);
    const s = sb.stats();
    expect(s.files).toBeGreaterThan(10);
    expect(s.processes.map((x) => x.pid)).toContain(p.pid);
    p.kill();
    expect((await p.wait()).signal).toBe(15);
  });

  it('changes limits for new processes', async () => {
    const before = sb.limits;
    expect(() => sb.setLimits({ maxProcesses: 0 })).toThrow(RangeError);
    sb.setLimits({ wallTimeMs: 150 });
    const r = await runProgram(sb, '/usr/bin/fixture-spin', ['spin']);
    expect(r.status).toBe(124);
    sb.setLimits({ wallTimeMs: before.wallTimeMs });
    expect(sb.limits.wallTimeMs).toBe(before.wallTimeMs);
  });

  it('imports a host directory read-only', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'sg-import-'));
    writeFileSync(join(dir, 'a.txt'), 'host');
    await sb.importHostDir(dir, '/mnt/host', { readOnly: true });
    const r = await runProgram(sb, '/usr/bin/fixture-fs', [
      'fs',
      'read',
      '/mnt/host/a.txt',
      'write',
      '/mnt/host/a.txt',
      'no',
    ]);
    expect(r.stdout).toBe('host\nerr write 69\n');
  });

  it('a lazily imported file changed on the host reads as EIO, with the reason on stderr', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'sg-import-'));
    writeFileSync(join(dir, 'a.txt'), 'host');
    writeFileSync(join(dir, 'b.txt'), 'kept');
    const res = await sb.importHostDir(dir, '/mnt/lazy', { contents: 'lazy', recentMs: 0 });
    expect(res.bytesRead).toBe(0);
    writeFileSync(join(dir, 'a.txt'), 'HOST');
    const r = await runProgram(sb, '/usr/bin/fixture-fs', [
      'fs',
      'read',
      '/mnt/lazy/a.txt',
      'read',
      '/mnt/lazy/b.txt',
    ]);
    expect(r.stdout).toBe('err read 29\nkept\n');
    expect(r.stderr).toContain(
      'sandglass: /mnt/lazy/a.txt: the host file changed after it was imported and before it was first read',
    );
  });
});
