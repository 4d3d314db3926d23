/**
 * python3 on the sandbox terminal: the REPL prompts, evaluates lines and
 * blocks, Ctrl-C cancels the current input with KeyboardInterrupt, Ctrl-D
 * leaves; a script interrupted by Ctrl-C exits 130; isatty is true there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../sandbox/sandbox.js';
import type { Terminal } from '../sandbox/terminal.js';
import { pythonAvailable } from '../programs/python.js';

/** The shell marks the end of its prompt with OSC 133;B. */
const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
const PROMPT = new RegExp(`${ESC}\\]133;B${BEL}$`);

class Screen {
  text = '';
  constructor(readonly term: Terminal) {
    const dec = new TextDecoder();
    term.onData((d) => (this.text += dec.decode(d, { stream: true })));
  }

  /** Wait until the output since `from` matches. */
  async until(re: RegExp, from: number, ms = 120_000): Promise<string> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const seen = this.text.slice(from);
      if (re.test(seen)) return seen;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`timed out waiting for ${re}; screen:\n${this.text.slice(from)}`);
  }
}

describe.skipIf(!pythonAvailable())('python3 REPL on the terminal', () => {
  let sb: Sandbox;
  let screen: Screen;

  beforeAll(async () => {
    sb = await Sandbox.create();
    screen = new Screen(await sb.openTerminal({ cols: 80, rows: 24 }));
    await screen.until(PROMPT, 0);
  }, 120_000);

  afterAll(async () => {
    screen.term.close();
    await sb.destroy();
  });

  it('evaluates lines and blocks, cancels on Ctrl-C, exits on Ctrl-D', async () => {
    const t = screen.term;
    let at = screen.text.length;
    t.write('python3\r');
    await screen.until(/Type "help".*\r?\n>>> $/s, at);
    at = screen.text.length;
    t.write('import sys; print(sys.stdin.isatty(), sys.stdout.isatty(), 6 * 7)\r');
    await screen.until(/True True 42\r?\n>>> $/, at);
    at = screen.text.length;
    t.write('for i in range(2):\r');
    await screen.until(/\.\.\. $/, at);
    t.write('    print("row", i)\r\r');
    await screen.until(/row 0\r?\nrow 1\r?\n>>> $/, at);
    at = screen.text.length;
    t.write('half a line');
    await screen.until(/half a line$/, at);
    t.write('\x03');
    await screen.until(/KeyboardInterrupt\r?\n>>> $/, at);
    at = screen.text.length;
    t.write('\x04');
    await screen.until(PROMPT, at);
    at = screen.text.length;
    t.write('python3 -c "import time; print(\'go\'); time.sleep(60)"\r');
    await screen.until(/go\r?\n/, at);
    t.write('\x03');
    // The traceback names the user's line, not our sleep; the shell's OSC 133;D mark carries the status.
    const out = await screen.until(new RegExp(`KeyboardInterrupt\\s*${ESC}\\]133;D;130${BEL}`), at);
    expect(out).toContain('File "<string>", line 1, in <module>');
    expect(out).not.toContain('<sandglass>');
  }, 600_000);
});
