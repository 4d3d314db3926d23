/**
 * python3 on the sandbox terminal: CPython's REPL (_pyrepl over the kernel's
 * termios) prompts, evaluates lines and blocks, edits the line (arrows),
 * recalls history, Ctrl-C cancels the current input with KeyboardInterrupt,
 * Ctrl-D leaves; a script interrupted by Ctrl-C exits 130; isatty is true
 * there; PYTHON_BASIC_REPL gives the basic REPL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../sandbox/sandbox.js';
import type { Terminal } from '../sandbox/terminal.js';
import { pythonAvailable } from '../programs/python.js';

/** The shell marks the end of its prompt with OSC 133;B. */
const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
const PROMPT = new RegExp(`${ESC}\\]133;B${BEL}$`);
/** Keys as xterm sends them in keypad-transmit mode (pyrepl turns it on). */
const UP = `${ESC}OA`;
const LEFT = `${ESC}OD`;
/** pyrepl redraws the line on every key: compare text without its control sequences. */
const CSI = new RegExp(`${ESC}(\\[[0-9;?]*[A-Za-z]|[=>])`, 'g');
const plain = (s: string): string => s.replace(CSI, '');

class Screen {
  text = '';
  constructor(readonly term: Terminal) {
    const dec = new TextDecoder();
    term.onData((d) => (this.text += dec.decode(d, { stream: true })));
  }

  /** Wait until the output since `from` (without cursor and colour sequences) matches. */
  async until(re: RegExp, from: number, ms = 120_000): Promise<string> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const seen = plain(this.text.slice(from));
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

  it('evaluates lines and blocks, edits and recalls lines, cancels on Ctrl-C, exits on Ctrl-D', async () => {
    const t = screen.term;
    let at = screen.text.length;
    t.write('python3\r');
    await screen.until(/Type "help".*\n>>> $/s, at);
    at = screen.text.length;
    t.write('import sys; print(sys.stdin.isatty(), sys.stdout.isatty(), 6 * 7)\r');
    await screen.until(/True True 42\r\n\n?>>> $/, at);
    // Up recalls the last line; Enter runs it again.
    at = screen.text.length;
    t.write(UP);
    await screen.until(
      />>> import sys; print\(sys.stdin.isatty\(\), sys.stdout.isatty\(\), 6 \* 7\)$/,
      at,
    );
    t.write('\r');
    await screen.until(/True True 42\r\n\n?>>> $/, at);
    // Left moves the cursor: a digit typed there goes before the last one.
    at = screen.text.length;
    t.write(`n = 5${LEFT}4\r`);
    await screen.until(/>>> n = 45\n/, at);
    t.write('n + 1\r');
    await screen.until(/46\r\n\n?>>> $/, at);
    // A block: the continuation prompt, auto-indented; an empty line ends it.
    at = screen.text.length;
    t.write('for i in range(2):\r');
    await screen.until(/\.\.\. +$/, at);
    t.write('print("row", i)\r\r');
    await screen.until(/row 0\r\nrow 1\r\n\n?>>> $/, at);
    // Ctrl-C cancels the line being typed, and interrupts running code.
    at = screen.text.length;
    t.write('half a line');
    await screen.until(/half a line$/, at);
    t.write('\x03');
    await screen.until(/KeyboardInterrupt\r\n\n?>>> $/, at);
    at = screen.text.length;
    t.write('import time; print("zz"); time.sleep(60)\r');
    await screen.until(/\rzz\r\n/, at);
    t.write('\x03');
    const slept = await screen.until(/KeyboardInterrupt\r\n\n?>>> $/, at);
    expect(slept).toContain('File "<python-input-');
    expect(slept).not.toContain('<sandglass>');
    // termios on the terminal is the kernel's (what pyrepl itself uses).
    at = screen.text.length;
    t.write(
      'import termios; a = termios.tcgetattr(0); print(bool(a[3] & termios.ICANON), bool(a[3] & termios.ECHO))\r',
    );
    await screen.until(/True True\r\n\n?>>> $/, at);
    at = screen.text.length;
    t.write('\x04');
    await screen.until(PROMPT, at);
    // The shell's line editor works as before.
    at = screen.text.length;
    t.write('echo back $?\r');
    await screen.until(/back 0\r\n/, at);
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

  it('leaves the terminal as it found it when the REPL is killed in raw mode', async () => {
    const t = screen.term;
    await screen.until(PROMPT, 0);
    let at = screen.text.length;
    t.write('python3 -q\r');
    await screen.until(/>>> $/, at);
    at = screen.text.length;
    t.write('import os; open("/tmp/pypid", "w").write(str(os.getpid()))\r');
    await screen.until(/\n>>> $/, at);
    at = screen.text.length;
    // Killed while pyrepl holds the terminal raw (no ICANON, no ECHO, no OPOST).
    await sb.run('kill -9 $(cat /tmp/pypid)', { timeoutMs: 60_000 });
    await screen.until(PROMPT, at);
    at = screen.text.length;
    t.write("printf 'p\\nq\\n'\r");
    await screen.until(/p\r\nq\r\n/, at);
    await screen.until(PROMPT, at);
  }, 600_000);

  it('gives the basic REPL with PYTHON_BASIC_REPL, runs PYTHONSTARTUP, and input() reads a line from the terminal', async () => {
    const t = screen.term;
    await screen.until(PROMPT, 0);
    // $PYTHONSTARTUP runs in __main__ first, as in CPython.
    await sb.writeFile('/tmp/startup.py', 'greeting = "from startup"\n');
    let at = screen.text.length;
    t.write('PYTHONSTARTUP=/tmp/startup.py PYTHON_BASIC_REPL=1 python3 -q\r');
    await screen.until(/>>> $/, at);
    at = screen.text.length;
    t.write('print(greeting)\r');
    await screen.until(/from startup\r\n>>> $/, at);
    at = screen.text.length;
    t.write('x = input("name? ")\r');
    await screen.until(/name\? $/, at);
    t.write('ada\r');
    await screen.until(/>>> $/, at);
    at = screen.text.length;
    t.write('print(x.upper())\r');
    await screen.until(/ADA\r\n>>> $/, at);
    at = screen.text.length;
    t.write('\x04');
    await screen.until(PROMPT, at);
    // A script's input() blocks on the terminal until a line comes; Ctrl-D at it is EOFError.
    at = screen.text.length;
    t.write(`python3 -c 'print(input("who? ").upper()); input()'\r`);
    await screen.until(/who\? $/, at);
    await new Promise((r) => setTimeout(r, 300));
    expect(plain(screen.text.slice(at))).toMatch(/who\? $/);
    t.write('grace\r');
    await screen.until(/GRACE\r\n$/, at);
    t.write('\x04');
    const eof = await screen.until(PROMPT, at);
    expect(eof).toMatch(/EOFError/);
  }, 600_000);
});
