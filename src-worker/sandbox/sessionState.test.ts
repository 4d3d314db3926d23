/**
 * Shell sessions through the real shell.wasm: command lines reported by the
 * shell (`onCommand`), its state blobs (`sessionStates`) and putting a
 * session back into a saved state (`restoreSessionStates`), for a terminal
 * and for the API default session.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir, Sandbox, type CommandEvent } from './sandbox.js';
import type { Terminal } from './terminal.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.destroy();
  sb = undefined;
});
afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

async function until(check: () => boolean, what: string, ms = 20000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A terminal whose output and command events are collected. */
async function terminal(s: Sandbox, session = 'term1') {
  const events: CommandEvent[] = [];
  s.onCommand((e) => events.push(e));
  const t: Terminal = await s.openTerminal({ cwd: '/home/user', session });
  let out = '';
  const dec = new TextDecoder();
  t.onData((d) => (out += dec.decode(d, { stream: true })));
  const ends = () => events.filter((e) => e.type === 'end' && e.session === session);
  /** Type lines and wait for the shell to say they ended; the output since typing. */
  const lines = async (texts: readonly string[]): Promise<string> => {
    const n = ends().length;
    const from = out.length;
    t.write(texts.map((x) => `${x}\r`).join(''));
    await until(() => ends().length >= n + texts.length, `the end of ${JSON.stringify(texts[0])}`);
    return out.slice(from);
  };
  const line = (text: string): Promise<string> => lines([text]);
  await until(() => s.sessionStates().has(session), 'the shell to report its first state');
  return { t, events, line, lines, output: () => out };
}

const CHANGE = "cd /tmp; x=1; f(){ echo f$x; }; alias ll='ls -l'; set -o noglob";
const SPOIL = 'cd /; x=2; f(){ echo other; }; unalias ll; set +o noglob; declare -r late=1';
const CHECK = 'pwd; echo "x=$x"; f; alias ll; set -o | grep noglob; echo "late=${late-unset}"';

describe.skipIf(!haveShell)('shell session state', () => {
  it('a terminal reports its command lines and goes back to a saved state', async () => {
    sb = await Sandbox.create();
    const { events, line } = await terminal(sb);
    await line(CHANGE);
    const end = events.find((e) => e.type === 'end');
    expect(events[0]).toMatchObject({ type: 'start', session: 'term1', command: CHANGE });
    expect(end).toMatchObject({ type: 'end', session: 'term1', command: CHANGE, status: 0 });
    const saved = sb.sessionStates();
    expect(saved.get('term1')).toBe(end?.type === 'end' ? end.state : undefined);

    await line(SPOIL);
    expect(await line(CHECK)).toMatch(/\r\n\/\r\nx=2\r\nother\r\n.*noglob\s+off.*late=1/s);

    // The shell is idle, blocked reading the terminal: the restore wakes it.
    await sb.restoreSessionStates(saved);
    const after = await line(CHECK);
    expect(after).toContain("/tmp\r\nx=1\r\nf1\r\nalias ll='ls -l'\r\n");
    expect(after).toMatch(/noglob\s+on/);
    expect(after).toContain('late=unset');
    // The restored shell keeps working: a step, then its new state.
    expect(await line('x=$((x+1)); echo now $x')).toContain('now 2');
    expect(sb.sessionStates().get('term1')).not.toEqual(saved.get('term1'));
  });

  it('sessions missing from the map get a fresh shell’s state', async () => {
    sb = await Sandbox.create();
    const { line } = await terminal(sb, 'tty-a');
    await line(CHANGE);
    await sb.run('y=api; cd /tmp');
    expect(sb.sessionStates().has('default')).toBe(true);
    await sb.restoreSessionStates(new Map());
    const after = await line(CHECK);
    expect(after).toContain('/home/user\r\nx=\r\n');
    expect(after).toContain('f: command not found');
    expect((await sb.run('echo "y=$y"; pwd')).stdout).toBe('y=\n/home/user\n');
  });

  it('the API default session reports steps and goes back to a saved state', async () => {
    sb = await Sandbox.create();
    const events: CommandEvent[] = [];
    sb.onCommand((e) => events.push(e));
    const r1 = await sb.run(CHANGE);
    expect(r1.status).toBe(0);
    expect(events.map((e) => [e.type, e.session, e.command])).toEqual([
      ['start', 'default', CHANGE],
      ['end', 'default', CHANGE],
    ]);
    const saved = sb.sessionStates();
    await sb.run(SPOIL);
    await sb.run('false');
    expect(events.at(-1)).toMatchObject({ type: 'end', command: 'false', status: 1 });
    await sb.restoreSessionStates(saved);
    const r = await sb.run(CHECK);
    expect(r.stdout).toMatch(/^\/tmp\nx=1\nf1\nalias ll='ls -l'\nnoglob\s+on\nlate=unset\n$/);
    // A restore asks nothing of a session that has no command to wait for.
    expect(events.filter((e) => e.type === 'start').map((e) => e.command)).toEqual([
      CHANGE,
      SPOIL,
      'false',
      CHECK,
    ]);
  });

  it('a restore interrupts a command running in a terminal, then applies', async () => {
    sb = await Sandbox.create();
    const { events, line, t } = await terminal(sb);
    await line('x=saved');
    const saved = sb.sessionStates();
    await line('x=later');
    t.write('sleep 30\r');
    await until(() => events.at(-1)?.type === 'start', 'sleep to start');
    const t0 = performance.now();
    await sb.restoreSessionStates(saved);
    expect(performance.now() - t0).toBeLessThan(10000);
    expect(await line('echo "x=$x"')).toContain('x=saved');
  });

  it('state blobs of a big session stay small and cheap to take', async () => {
    sb = await Sandbox.create();
    const defs: string[] = [];
    for (let i = 0; i < 200; i++)
      defs.push(`fn${i}() {\n  local a=$1\n  echo "fn${i} $a" | tr a-z A-Z\n  return ${i % 3}\n}`);
    const { line, lines } = await terminal(sb, 'big');
    const small = sb.sessionStates().get('big')?.length ?? 0;
    const time = async (n: number): Promise<number> => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await line(':');
      return (performance.now() - t0) / n;
    };
    const before = await time(20);
    await sb.writeFile('/tmp/defs.sh', defs.join('\n') + '\n');
    await line('. /tmp/defs.sh');
    // 1000 history lines: typed as one paste, as a person would.
    const hist: string[] = [];
    for (let i = 0; i < 1000; i++) hist.push(`echo history line ${i} with some words >/dev/null`);
    for (let i = 0; i < 1000; i += 100) await lines(hist.slice(i, i + 100));
    const blob = sb.sessionStates().get('big');
    expect(blob).toBeDefined();
    const after = await time(20);
    console.log(
      `shell state: fresh ${small} B; 200 functions + 1000+ history lines ${blob?.length} B; ` +
        `a ':' line takes ${before.toFixed(2)} ms before, ${after.toFixed(2)} ms after`,
    );
    expect(blob?.length ?? 0).toBeLessThan(256 * 1024);
    expect(after - before).toBeLessThan(50);
  });
});
