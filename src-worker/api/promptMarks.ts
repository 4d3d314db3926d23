/**
 * Streaming parser of shell integration marks (OSC 133, FinalTerm style) in a
 * terminal's output. It turns `B` (input starts), `C` (command runs) and
 * `D;status` (command done) into finished-command records. The command line
 * comes from an explicit `OSC 633;E;cmd` / `OSC 133;E;cmd` mark when the shell
 * sends one, else from the echoed input between B and C, replayed through a
 * tiny line editor so cursor moves and erases from line editing are undone.
 * Every piece of state is bounded: pending and echoed text, the explicit
 * command, and the editor's line and cursor (a program can print anything).
 */

export interface FinishedCommand {
  command: string;
  status: number | null;
  startedAt: number;
  durationMs: number;
}

const MAX_PENDING = 8192;
const MAX_ECHO = 65536;
/** Widest line the line editor keeps; cursor moves and inserts past it are clamped. */
export const MAX_LINE = 4096;

export class PromptMarkParser {
  private pending = '';
  private capturing = false;
  private echo = '';
  private explicit: string | null = null;
  private inputAt = 0;
  private command: string | null = null;
  private startedAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The command line running now (between C and D), if any. */
  get running(): string | null {
    return this.command;
  }

  /** Feeds output text; returns the commands that finished in it. */
  feed(chunk: string): FinishedCommand[] {
    const done: FinishedCommand[] = [];
    const text = this.pending + chunk;
    this.pending = '';
    let i = 0;
    while (i < text.length) {
      const start = text.indexOf('\x1b]', i);
      if (start < 0) {
        // A trailing ESC may begin an OSC completed by the next chunk.
        const tail = text.endsWith('\x1b') ? 1 : 0;
        this.capture(text.slice(i, text.length - tail));
        this.pending = tail ? '\x1b' : '';
        break;
      }
      this.capture(text.slice(i, start));
      const bel = text.indexOf('\x07', start + 2);
      const st = text.indexOf('\x1b\\', start + 2);
      let end = -1;
      let termLen = 0;
      if (bel >= 0 && (st < 0 || bel < st)) {
        end = bel;
        termLen = 1;
      } else if (st >= 0) {
        end = st;
        termLen = 2;
      }
      if (end < 0) {
        const rest = text.slice(start);
        // An unterminated OSC longer than any mark is garbage: drop it.
        this.pending = rest.length <= MAX_PENDING ? rest : '';
        break;
      }
      const finished = this.mark(text.slice(start + 2, end));
      if (finished) done.push(finished);
      i = end + termLen;
    }
    return done;
  }

  private capture(text: string): void {
    if (!this.capturing || text.length === 0) return;
    if (this.echo.length + text.length <= MAX_ECHO) this.echo += text;
  }

  private mark(body: string): FinishedCommand | null {
    const [family, kind, ...rest] = body.split(';');
    if (family !== '133' && family !== '633') return null;
    const arg = rest.join(';');
    switch (kind) {
      case 'A':
        return null;
      case 'B':
        this.capturing = true;
        this.echo = '';
        this.explicit = null;
        this.command = null;
        this.inputAt = this.now();
        return null;
      case 'E':
        this.explicit = unescapeMarkArg(arg.slice(0, MAX_ECHO));
        return null;
      case 'C':
        this.command = this.currentCommand();
        this.capturing = false;
        this.startedAt = this.now();
        return null;
      case 'D': {
        const command = this.command ?? (this.capturing ? this.currentCommand() : '');
        const startedAt = this.command !== null ? this.startedAt : this.inputAt;
        this.capturing = false;
        this.command = null;
        this.echo = '';
        if (command.trim() === '') return null;
        const status = /^-?\d+$/.test(rest[0] ?? '') ? Number(rest[0]) : null;
        const end = this.now();
        return { command, status, startedAt, durationMs: Math.max(0, end - startedAt) };
      }
      default:
        return null;
    }
  }

  private currentCommand(): string {
    return this.explicit ?? replayLine(this.echo);
  }
}

/** VS Code's escaping for mark arguments: `\\` and `\xHH`. */
export function unescapeMarkArg(arg: string): string {
  return arg.replace(/\\(\\|x([0-9a-fA-F]{2}))/g, (_m, all: string, hex: string | undefined) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : all,
  );
}

/** Replays echoed input through a minimal line editor and returns the text typed. */
export function replayLine(raw: string): string {
  const lines: string[] = [];
  let line: string[] = [];
  let cursor = 0;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] ?? '';
    if (ch === '\x1b') {
      if (raw[i + 1] === '[') {
        let j = i + 2;
        while (j < raw.length && /[0-9;?]/.test(raw[j] ?? '')) j++;
        const params = raw.slice(i + 2, j);
        const final = raw[j] ?? '';
        // Counts are clamped to the line width, so `ESC[2000000000C` costs nothing.
        const n = Math.min(MAX_LINE, Math.max(1, parseInt(params, 10) || 1));
        if (final === 'C') cursor = Math.min(MAX_LINE, cursor + n);
        else if (final === 'D') cursor = Math.max(0, cursor - n);
        else if (final === 'K')
          line =
            params === '2'
              ? []
              : params === '1'
                ? line.map((c, k) => (k <= cursor ? ' ' : c))
                : line.slice(0, cursor);
        else if (final === 'P') line.splice(cursor, n);
        else if (final === '@') {
          line.splice(cursor, 0, ...' '.repeat(Math.max(0, Math.min(n, MAX_LINE - cursor))));
          line.length = Math.min(line.length, MAX_LINE);
        } else if (final === 'G') cursor = n - 1;
        i = j;
      } else {
        i += 1;
      }
    } else if (ch === '\r') {
      cursor = 0;
    } else if (ch === '\n') {
      lines.push(line.join('').trimEnd());
      line = [];
      cursor = 0;
    } else if (ch === '\b') {
      cursor = Math.max(0, cursor - 1);
    } else if (ch >= ' ' && ch !== '\x7f') {
      if (cursor >= MAX_LINE) continue;
      while (line.length < cursor) line.push(' ');
      line[cursor] = ch;
      cursor++;
    }
  }
  lines.push(line.join('').trimEnd());
  return lines
    .filter((l) => l.trim() !== '')
    .join('\n')
    .trim();
}
