import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandglassEngine } from '../api/engine.js';
import { API_VERSION } from '../contract/api.js';
import { JournalDir } from './journalDir.js';

const dirs: string[] = [];
const engines: SandglassEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup(): { dir: string; engine: SandglassEngine } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-journal-'));
  dirs.push(dir);
  const engine = new SandglassEngine();
  engines.push(engine);
  return { dir, engine };
}

describe('JournalDir', () => {
  it('journals live sandboxes and brings them back in the next engine', async () => {
    const { dir, engine } = setup();
    const journals = new JournalDir(dir, engine);
    await journals.attach();
    const a = await engine.call('createSandbox', { name: 'work / one' });
    await engine.call('run', { sandboxId: a.id, command: 'echo kept > /tmp/f' });
    await engine.call('run', { sandboxId: a.id, command: 'echo more >> /tmp/f' });
    const gone = await engine.call('createSandbox', { name: 'gone' });
    await engine.call('run', { sandboxId: gone.id, command: 'true' });
    await engine.call('destroySandbox', { sandboxId: gone.id });
    // A crash: the engine stops without clearing its journals.
    journals.close();
    expect(fs.readdirSync(dir)).toHaveLength(1);

    const next = new SandglassEngine({ restarted: true });
    engines.push(next);
    const recovered = await new JournalDir(dir, next).recover();
    expect(recovered.map((r) => [r.sandbox.name, r.steps])).toEqual([
      ['work / one (recovered)', 2],
    ]);
    const id = (recovered[0] as (typeof recovered)[number]).sandbox.id;
    const steps = await next.call('listSteps', { sandboxId: id });
    expect(steps.steps.map((s) => s.command)).toEqual([
      'echo kept > /tmp/f',
      'echo more >> /tmp/f',
    ]);
    // The last step's snapshot holds the file as it was recorded.
    const last = steps.steps[1];
    const file = await next.call('readFile', {
      sandboxId: id,
      path: '/tmp/f',
      snapshotId: last?.snapshotId as string,
    });
    expect(Buffer.from(file.base64, 'base64').toString()).toBe('kept\nmore\n');
    const hello = await next.call('hello', { apiVersion: API_VERSION });
    expect(hello.restarted).toBe(true);
  });

  it('a clean stop clears the journals; an unreadable one is set aside', async () => {
    const { dir, engine } = setup();
    const journals = new JournalDir(dir, engine);
    await journals.attach();
    await engine.call('createSandbox', { name: 'x' });
    await new Promise((r) => setTimeout(r, 10));
    expect(fs.readdirSync(dir)).toHaveLength(1);
    journals.clear();
    journals.close();
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.writeFileSync(path.join(dir, '1-sb1-junk.sgjournal'), 'not a journal');
    const warnings: string[] = [];
    const recovered = await new JournalDir(dir, engine, (m) => warnings.push(m)).recover();
    expect(recovered).toEqual([]);
    expect(warnings[0]).toMatch(/not recovered/);
    expect(fs.readdirSync(dir)).toEqual(['1-sb1-junk.sgjournal.unreadable']);
  });
  it('journals a host import made before the first step with the sandbox’s starting state', async () => {
    const { dir, engine } = setup();
    const host = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-journal-host-'));
    dirs.push(host);
    fs.writeFileSync(path.join(host, 'given.txt'), 'given\n');
    const journals = new JournalDir(dir, engine);
    await journals.attach();
    const sb = await engine.call('createSandbox', { name: 'imp' });
    await engine.importHostDir(sb.id, host, '/data', { contents: 'lazy' });
    await engine.call('run', { sandboxId: sb.id, command: 'echo own > /tmp/own' });
    journals.close();
    const next = new SandglassEngine();
    engines.push(next);
    const [recovered] = await new JournalDir(dir, next).recover();
    const id = recovered?.sandbox.id ?? '';
    const [step] = (await next.call('listSteps', { sandboxId: id })).steps;
    const read = async (p: string): Promise<string> => {
      const file = await next.call('readFile', {
        sandboxId: id,
        path: p,
        snapshotId: step?.snapshotId ?? '',
      });
      return Buffer.from(file.base64, 'base64').toString();
    };
    expect(await read('/data/given.txt')).toBe('given\n');
    expect(await read('/tmp/own')).toBe('own\n');
  });
});
