/**
 * A kernel terminal: line discipline between the outside (a terminal
 * widget: `input()` bytes in, `onOutput` bytes out) and the processes
 * reading and writing it. Canonical mode buffers a line with erase/kill,
 * echo copies input back, isig turns Ctrl-C / Ctrl-\ / Ctrl-Z into signals
 * for the foreground process group, Ctrl-D ends input in canonical mode.
 * Output gets LF -> CRLF like a real tty's ONLCR, unless a program turned
 * output processing off (termios OPOST/ONLCR: TTY_RAW_OUTPUT).
 */
import { Notifier } from '../base/notifier.js';
import { concat } from '../fd/openFile.js';

export const TTY_CANON = 1;
export const TTY_ECHO = 2;
export const TTY_ISIG = 4;
/** Output goes out as written (no LF -> CRLF): a full-screen editor's raw mode. */
export const TTY_RAW_OUTPUT = 8;
/** Outside canonical mode, CR reads as LF (termios ICRNL; canonical mode always ends a line at CR). */
export const TTY_ICRNL = 16;
/** Every mode bit a program may set. */
export const TTY_MODE_BITS = TTY_CANON | TTY_ECHO | TTY_ISIG | TTY_RAW_OUTPUT | TTY_ICRNL;

export const SIGINT = 2;
export const SIGQUIT = 3;
export const SIGTSTP = 20;
export const SIGWINCH = 28;

export interface TtyHooks {
  /** Bytes for the outside terminal. */
  output(data: Uint8Array): void;
  /** Deliver a signal to a process group. */
  signal(pgrp: number, sig: number): void;
}

const BS = 0x7f;
const CTRL_H = 0x08;
const CTRL_U = 0x15;
const CTRL_W = 0x17;

export class Tty {
  mode = TTY_CANON | TTY_ECHO | TTY_ISIG;
  cols: number;
  rows: number;
  fgPgrp = 0;
  /** Pid of the process that set the mode last (0: none). */
  modeSetBy = 0;
  readonly changed = new Notifier();
  private ready: Uint8Array[] = [];
  private readySize = 0;
  private line: number[] = [];
  private eofs = 0;
  closed = false;

  constructor(
    private readonly hooks: TtyHooks,
    cols = 80,
    rows = 24,
  ) {
    this.cols = cols;
    this.rows = rows;
  }

  /**
   * Changes the line discipline. Leaving canonical mode makes a partly typed
   * line readable at once, as on Linux: keys typed ahead while a command
   * finishes reach the line editor instead of being lost.
   */
  setMode(mode: number): void {
    if (this.mode & TTY_CANON && !(mode & TTY_CANON) && this.line.length) this.flushLine();
    this.mode = mode;
    this.changed.notify();
  }

  /** Bytes typed by the user. */
  input(data: Uint8Array): void {
    for (const b of data) this.inputByte(b);
    this.changed.notify();
  }

  private echo(bytes: number[] | Uint8Array): void {
    if (this.mode & TTY_ECHO) this.hooks.output(Uint8Array.from(bytes));
  }

  private inputByte(b: number): void {
    if (this.mode & TTY_ISIG) {
      const sig = b === 0x03 ? SIGINT : b === 0x1c ? SIGQUIT : b === 0x1a ? SIGTSTP : 0;
      if (sig) {
        const caret = [0x5e, b + 0x40];
        this.echo(caret);
        if (this.mode & TTY_CANON) this.echo([0x0d, 0x0a]);
        this.line = [];
        if (this.fgPgrp > 0) this.hooks.signal(this.fgPgrp, sig);
        return;
      }
    }
    if (!(this.mode & TTY_CANON)) {
      if (b === 0x0d && this.mode & TTY_ICRNL) b = 0x0a;
      this.push(Uint8Array.of(b));
      this.echo([b]);
      return;
    }
    if (b === 0x04) {
      // Ctrl-D: flush the partial line, or signal EOF on an empty one.
      if (this.line.length) this.flushLine();
      else this.eofs++;
      return;
    }
    if (b === BS || b === CTRL_H) {
      if (this.line.length) {
        // Erase a whole UTF-8 character (continuation bytes are 10xxxxxx).
        let c = this.line.pop() as number;
        while ((c & 0xc0) === 0x80 && this.line.length) c = this.line.pop() as number;
        this.echo([0x08, 0x20, 0x08]);
      }
      return;
    }
    if (b === CTRL_U) {
      while (this.line.length) {
        const c = this.line.pop() as number;
        if ((c & 0xc0) !== 0x80) this.echo([0x08, 0x20, 0x08]);
      }
      return;
    }
    if (b === CTRL_W) {
      while (this.line.length && this.line[this.line.length - 1] === 0x20) {
        this.line.pop();
        this.echo([0x08, 0x20, 0x08]);
      }
      while (this.line.length && this.line[this.line.length - 1] !== 0x20) {
        const c = this.line.pop() as number;
        if ((c & 0xc0) !== 0x80) this.echo([0x08, 0x20, 0x08]);
      }
      return;
    }
    if (b === 0x0d || b === 0x0a) {
      this.line.push(0x0a);
      this.echo([0x0d, 0x0a]);
      this.flushLine();
      return;
    }
    this.line.push(b);
    this.echo([b]);
  }

  private flushLine(): void {
    this.push(Uint8Array.from(this.line));
    this.line = [];
  }

  private push(data: Uint8Array): void {
    this.ready.push(data);
    this.readySize += data.length;
  }

  /** A process reads: bytes, empty for EOF, or null if it must wait. */
  read(len: number): Uint8Array | null {
    if (this.readySize > 0) {
      const all = concat(this.ready, this.readySize);
      const out = all.slice(0, len);
      const rest = all.subarray(out.length);
      this.ready = rest.length ? [rest] : [];
      this.readySize = rest.length;
      return out;
    }
    if (this.eofs > 0) {
      this.eofs--;
      return new Uint8Array(0);
    }
    if (this.closed) return new Uint8Array(0);
    return null;
  }

  get pending(): number {
    return this.readySize + (this.eofs > 0 ? 1 : 0);
  }

  /** A process writes: translate LF to CRLF (unless raw output) and pass it out. */
  write(data: Uint8Array): number {
    if (this.mode & TTY_RAW_OUTPUT) {
      this.hooks.output(data.slice());
      return data.length;
    }
    let lf = 0;
    for (const b of data) if (b === 0x0a) lf++;
    if (lf === 0) {
      this.hooks.output(data.slice());
      return data.length;
    }
    const out = new Uint8Array(data.length + lf);
    let j = 0;
    for (const b of data) {
      if (b === 0x0a) out[j++] = 0x0d;
      out[j++] = b;
    }
    this.hooks.output(out);
    return data.length;
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    if (this.fgPgrp > 0) this.hooks.signal(this.fgPgrp, SIGWINCH);
  }

  /** The outside went away: readers see EOF. */
  hangup(): void {
    this.closed = true;
    this.changed.notify();
  }
}
