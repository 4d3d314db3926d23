/**
 * Interactive terminals of the engine: a kernel tty with a shell per
 * terminal, its output decoded and sent as events, and the commands typed in
 * it recorded as steps. Step boundaries come from the shell through
 * syscalls (`Sandbox.onCommand`), never from the output, so a program
 * printing prompt marks cannot make or change a step. Each step carries the
 * output written between its start and end with its timing (bounded), and
 * the terminal's recent output (the "screen") to repaint from.
 */
import { TextDecoder } from 'node:util';
import type { CommandEvent } from '../sandbox/sandbox.js';
import { asEngineError, EngineError } from './errors.js';
import type { SandboxEntry } from './registry.js';
import type { RecordingFrame as TerminalChunk } from '../contract/api.js';

export interface TerminalSink {
  data(entry: SandboxEntry, terminalId: string, data: string): void;
  exit(entry: SandboxEntry, terminalId: string, status: number): void;
  /** The running command of a sandbox changed (stats). */
  running(entry: SandboxEntry): void;
  /** The terminal shell's working directory is now `cwd` (at open, then after commands that change it). */
  cwd(entry: SandboxEntry, terminalId: string, cwd: string): void;
}

/** Most output characters recorded for one step; the rest is cut (`recordingTruncated`). */
export const MAX_RECORDING = 1024 * 1024;
/** Characters of recent output kept per terminal as its screen. */
export const MAX_SCREEN = 64 * 1024;

/** The output of the step running in a terminal, as it is written. */
interface Recording {
  readonly t0: number;
  readonly chunks: TerminalChunk[];
  size: number;
  truncated: boolean;
}

interface TerminalRecord {
  readonly id: string;
  readonly entry: SandboxEntry;
  readonly terminal: { write(d: string): void; resize(c: number, r: number): void; close(): void };
  readonly decoder: TextDecoder;
  readonly screen: ScreenTail;
  recording: Recording | undefined;
  /** The shell's working directory as last reported. */
  cwd: string;
  stopEvents: () => void;
}

export function clampSize(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(n)));
}

/** The last `max` characters of a terminal's output, cheap to append to. */
export class ScreenTail {
  private parts: string[] = [];
  private size = 0;

  constructor(private readonly max = MAX_SCREEN) {}

  push(data: string): void {
    this.parts.push(data);
    this.size += data.length;
    while (this.parts.length > 1 && this.size - (this.parts[0]?.length ?? 0) >= this.max) {
      this.size -= this.parts.shift()?.length ?? 0;
    }
  }

  /** The kept output, starting at a line start when one is near the cut. */
  text(): string {
    let all = this.parts.join('');
    if (all.length > this.max) {
      all = all.slice(all.length - this.max);
      const nl = all.indexOf('\n');
      if (nl >= 0 && nl < 4096) all = all.slice(nl + 1);
    }
    return all;
  }
}

/** Terminal shell sessions are named by their terminal's id. */
const TERMINAL_SESSION = /^term\d+$/;

export class Terminals {
  private readonly terminals = new Map<string, TerminalRecord>();

  constructor(
    private readonly sink: TerminalSink,
    private readonly newId: (prefix: string) => string,
  ) {}

  /**
   * A step's session states for a sandbox forked from it. A terminal's shell
   * session is named by the terminal's id, which the fork's terminals cannot
   * have: each terminal state moves to a new id that `entry`'s next terminals
   * take in order (the step's own terminal first), so the first terminal
   * opened in the fork is where the step left its shell.
   */
  handOver(
    entry: SandboxEntry,
    states: ReadonlyMap<string, Uint8Array>,
    first: string,
  ): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    const names = [...states.keys()].sort((a, b) => Number(b === first) - Number(a === first));
    for (const name of names) {
      const blob = states.get(name) as Uint8Array;
      if (!TERMINAL_SESSION.test(name)) {
        out.set(name, blob);
        continue;
      }
      const id = this.newId('term');
      entry.terminalIds.push(id);
      out.set(id, blob);
    }
    return out;
  }

  async open(
    entry: SandboxEntry,
    opts: { cols: number; rows: number; cwd?: string },
  ): Promise<string> {
    // A fork's terminals take the ids its forked shell states wait under.
    const id = entry.terminalIds.shift() ?? this.newId('term');
    const cwd = opts.cwd ?? '/home/user';
    const terminal = await entry.sandbox
      .openTerminal({
        cols: clampSize(opts.cols, 2, 1000),
        rows: clampSize(opts.rows, 1, 500),
        cwd,
        session: id,
      })
      .catch((err: unknown) => {
        throw asEngineError(err, 'cannot start the terminal shell /bin/sh');
      });
    const record: TerminalRecord = {
      id,
      entry,
      terminal,
      decoder: new TextDecoder('utf-8'),
      screen: new ScreenTail(),
      recording: undefined,
      cwd,
      stopEvents: () => undefined,
    };
    this.terminals.set(id, record);
    record.stopEvents = entry.sandbox.onCommand((ev) => {
      if (ev.session === id && this.terminals.get(id) === record) this.command(record, ev);
    });
    terminal.onData((chunk) => {
      if (this.terminals.get(id) !== record) return;
      const data = record.decoder.decode(chunk, { stream: true });
      if (data.length === 0) return;
      this.sink.data(entry, id, data);
      this.capture(record, data);
    });
    terminal.onExit((status) => {
      if (this.terminals.get(id) !== record) return;
      this.forget(record);
      this.sink.exit(entry, id, status);
    });
    this.sink.cwd(entry, id, cwd);
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
    this.forget(record);
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

  private forget(record: TerminalRecord): void {
    this.terminals.delete(record.id);
    record.stopEvents();
    if (record.entry.running.delete(record.id)) this.sink.running(record.entry);
  }

  private capture(record: TerminalRecord, data: string): void {
    record.screen.push(data);
    const rec = record.recording;
    if (!rec || rec.truncated) return;
    const room = MAX_RECORDING - rec.size;
    const kept = data.length <= room ? data : data.slice(0, room);
    if (kept.length > 0) {
      rec.chunks.push({ t: Math.round(performance.now() - rec.t0), data: kept });
      rec.size += kept.length;
    }
    if (kept.length < data.length) rec.truncated = true;
  }

  /** A command line of the terminal's shell started or ended. */
  private command(record: TerminalRecord, ev: CommandEvent): void {
    const { entry } = record;
    if (ev.type === 'start') {
      record.recording = { t0: performance.now(), chunks: [], size: 0, truncated: false };
      entry.running.set(record.id, ev.command);
      this.sink.running(entry);
      return;
    }
    const rec = record.recording;
    record.recording = undefined;
    if (ev.cwd !== undefined && ev.cwd !== record.cwd) {
      record.cwd = ev.cwd;
      this.sink.cwd(entry, record.id, ev.cwd);
    }
    void entry.steps
      .record({
        sessionId: record.id,
        sessionKind: 'terminal',
        command: ev.command,
        status: ev.status,
        startedAt: ev.startedAt,
        durationMs: ev.durationMs,
        recording: rec?.chunks ?? [],
        recordingTruncated: rec?.truncated ?? false,
        screen: record.screen.text(),
      })
      .catch(() => undefined);
    if (entry.running.delete(record.id)) this.sink.running(entry);
  }
}
