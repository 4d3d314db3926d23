import { describe, expect, it } from 'vitest';
import { MAX_LINE, PromptMarkParser, replayLine, unescapeMarkArg } from './promptMarks.js';

const OSC = (s: string) => `\x1b]${s}\x07`;

describe('PromptMarkParser', () => {
  it('reports a command with its status from B/C/D marks and echoed input', () => {
    let t = 1000;
    const p = new PromptMarkParser(() => t);
    expect(p.feed(`${OSC('133;A')}$ ${OSC('133;B')}ls -l\r\n${OSC('133;C')}`)).toEqual([]);
    t = 1250;
    const done = p.feed(`file\r\n${OSC('133;D;2')}`);
    expect(done).toEqual([{ command: 'ls -l', status: 2, startedAt: 1000, durationMs: 250 }]);
  });
  it('handles marks split across chunks and ST terminators', () => {
    const p = new PromptMarkParser();
    const stream = `\x1b]133;B\x1b\\echo hi\r\n\x1b]133;C\x1b\\hi\r\n\x1b]133;D;0\x1b\\`;
    const out = [];
    for (const ch of stream) out.push(...p.feed(ch));
    expect(out.map((c) => [c.command, c.status])).toEqual([['echo hi', 0]]);
  });
  it('prefers an explicit command line mark', () => {
    const p = new PromptMarkParser();
    const done = p.feed(
      `${OSC('133;B')}garbage${OSC('633;E;echo a\\x3bb')}\r\n${OSC('133;C')}${OSC('133;D;0')}`,
    );
    expect(done[0]?.command).toBe('echo a;b');
  });
  it('ignores empty command lines and D without status', () => {
    const p = new PromptMarkParser();
    expect(p.feed(`${OSC('133;B')}\r\n${OSC('133;D')}`)).toEqual([]);
    const d = p.feed(`${OSC('133;B')}true\r\n${OSC('133;C')}${OSC('133;D')}`);
    expect(d[0]).toMatchObject({ command: 'true', status: null });
  });
});

describe('replayLine', () => {
  it('undoes backspaces, cursor moves and erases', () => {
    expect(replayLine('lss\b \b -l')).toBe('ls -l');
    expect(replayLine('ech\x1b[1Do\x1b[K')).toBe('eco');
    expect(replayLine('abc\r\x1b[Kxyz')).toBe('xyz');
    expect(replayLine('cat fi\x07le.txt')).toBe('cat file.txt');
  });
  it('unescapes mark arguments', () => {
    expect(unescapeMarkArg('a\\\\b\\x3bc')).toBe('a\\b;c');
  });
});

// Issue 20, item 1: `printf '\033]133;B\007\033[2000000000Cx\033]133;C\007'` grew the line
// editor's array to the cursor position and killed the engine with a V8 "invalid size".
describe('bounded line editor (issue 20 #1)', () => {
  it('clamps huge cursor moves and inserts to the line width', () => {
    const p = new PromptMarkParser();
    const t0 = performance.now();
    p.feed('\x1b]133;B\x07\x1b[2000000000Cx\x1b]133;C\x07');
    expect(p.running?.length).toBeLessThanOrEqual(MAX_LINE);
    expect(replayLine('\x1b[2000000000@ab').length).toBeLessThanOrEqual(MAX_LINE);
    expect(replayLine(`a\x1b[${'9'.repeat(5000)}Gb`).length).toBeLessThanOrEqual(MAX_LINE);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
  it('keeps a line of any length to the line width and an explicit command bounded', () => {
    expect(replayLine('y'.repeat(100_000)).length).toBe(MAX_LINE);
    const p = new PromptMarkParser();
    const done = p.feed(
      `\x1b]133;B\x07\x1b]633;E;${'z'.repeat(200_000)}\x07\x1b]133;C\x07\x1b]133;D;0\x07`,
    );
    expect(done[0]?.command.length).toBeLessThanOrEqual(65536);
  });
});
