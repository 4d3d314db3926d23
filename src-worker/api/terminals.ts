/**
 * Interactive terminals of the engine: a kernel tty with a shell per
 * terminal, its output decoded and sent as events, and the commands typed in
 * it recorded as steps from the shell's prompt marks.
 */
import { TextDecoder } from 'node:util';
import { asEngineError, EngineError } from './errors.js';
import { PromptMarkParser } from './promptMarks.js';
import type { SandboxEntry } from './registry.js';

export interface TerminalSink {
  data(entry: SandboxEntry, terminalId: string, data: string): void;
  exit(entry: SandboxEntry, terminalId: string, status: number): void;
  /** The running command of a sandbox changed (stats). */
  running(entry: SandboxEntry): void;
}

interface TerminalRecord {
  readonly id: string;
  readonly entry: SandboxEntry;
  readonly terminal: { write(d: string): void; resize(c: number, r: number): void; close(): void };
  readonly decoder: TextDecoder;
  readonly marks: PromptMarkParser;
}

export function clampSize(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(n)));
}

export class Terminals {
  private readonly terminals = new Map<string, TerminalRecord>();

  constructor(
    private readonly sink: TerminalSink,
    private readonly newId: (prefix: string) => string,
  ) {}

  async open(
    entry: SandboxEntry,
    opts: { cols: number; rows: number; cwd?: string },
  ): Promise<string> {
    const terminal = await entry.sandbox
      .openTerminal({
        cols: clampSize(opts.cols, 2, 1000),
        rows: clampSize(opts.rows, 1, 500),
        cwd: opts.cwd ?? '/home/user',
      })
      .catch((err: unknown) => {
        throw asEngineError(err, 'cannot start the terminal shell /bin/sh');
      });
    const id = this.newId('term');
    const record: TerminalRecord = {
      id,
      entry,
      terminal,
      decoder: new TextDecoder('utf-8'),
      marks: new PromptMarkParser(),
    };
    this.terminals.set(id, record);
    terminal.onData((chunk) => {
      if (!this.terminals.has(id)) return;
      const data = record.decoder.decode(chunk, { stream: true });
      if (data.length === 0) return;
      this.sink.data(entry, id, data);
      this.trackMarks(record, data);
    });
    terminal.onExit((status) => {
      if (!this.terminals.delete(id)) return;
      entry.running.delete(id);
      this.sink.exit(entry, id, status);
    });
    return id;
  }

  private get(id: string): TerminalRecord {
    const record = this.terminals.get(id);
    if (!record) throw new EngineError('ENOENT', `no terminal ${JSON.stringify(id)}`);
    return record;
  }

  /** The sandbox a terminal belongs to. */
  sandboxOf(id: string): string | undefined {
    return this.terminals.get(id)?.entry.id;
  }

  write(id: string, data: string): void {
    this.get(id).terminal.write(data);
  }

  resize(id: string, cols: number, rows: number): void {
    this.get(id).terminal.resize(clampSize(cols, 2, 1000), clampSize(rows, 1, 500));
  }

  close(id: string): void {
    const record = this.get(id);
    this.terminals.delete(id);
    record.entry.running.delete(id);
    try {
      record.terminal.close();
    } catch {
      // Closing an already-dead terminal is fine.
    }
  }

  /** Closes every terminal of a sandbox (it is being destroyed). */
  closeSandbox(sandboxId: string): void {
    for (const t of [...this.terminals.values()]) if (t.entry.id === sandboxId) this.close(t.id);
  }

  closeAll(): void {
    for (const id of [...this.terminals.keys()]) this.close(id);
  }

  private trackMarks(record: TerminalRecord, data: string): void {
    const { entry } = record;
    for (const done of record.marks.feed(data)) {
      void entry.steps
        .record({
          sessionId: record.id,
          sessionKind: 'terminal',
          command: done.command,
          status: done.status,
          startedAt: done.startedAt,
          durationMs: done.durationMs,
        })
        .catch(() => undefined);
    }
    // Between C and D the terminal's command is what the status bar shows as running.
    const running = record.marks.running;
    const before = entry.running.get(record.id) ?? null;
    if (running !== null) entry.running.set(record.id, running);
    else entry.running.delete(record.id);
    if (running !== before) this.sink.running(entry);
  }
}
