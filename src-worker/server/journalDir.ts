/**
 * A directory of timeline journals for an engine that may die: every sandbox
 * created in the engine is journaled to its own file as its steps happen
 * (timeline/format/journal.ts, one synchronous append per record, so a step
 * is on disk when it is recorded). After an unexpected stop, the next engine
 * calls `recover()`: each journal left behind is turned back into a timeline
 * file and opened as a replay sandbox named "<name> (recovered)". A journal
 * is deleted when its sandbox is destroyed, so only the sandboxes alive at the
 * crash come back. A recovered sandbox keeps its journal file (its steps are
 * already in it) until it is destroyed in turn.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SandglassEngine } from '../api/engine.js';
import type { ApiEvent, SandboxInfo } from '../contract/api.js';
import { recoverJournal } from '../timeline/format/journal.js';

const SUFFIX = '.sgjournal';

interface Journaled {
  readonly file: string;
  /** Stops journaling; absent for a recovered sandbox (nothing new to write) and until journaling has started. */
  stop?: () => void;
  readonly fd?: number;
  /** Set by `end`: a journal still starting stops as soon as it has, and writes nothing more. */
  ended?: boolean;
}

export interface RecoveredSandbox {
  readonly sandbox: SandboxInfo;
  readonly steps: number;
  readonly file: string;
}

export class JournalDir {
  private readonly journaled = new Map<string, Journaled>();
  private detach: (() => void) | undefined;

  constructor(
    readonly dir: string,
    private readonly engine: SandglassEngine,
    /** Where problems go (a journal that cannot be written or read). */
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Journals files left by an engine that stopped, opened as replay sandboxes. */
  async recover(): Promise<RecoveredSandbox[]> {
    const out: RecoveredSandbox[] = [];
    for (const name of fs.readdirSync(this.dir).sort()) {
      if (!name.endsWith(SUFFIX)) continue;
      const file = path.join(this.dir, name);
      try {
        const bytes = fs.readFileSync(file);
        const { file: timeline, steps } = recoverJournal(bytes);
        const title = /^\d+-[A-Za-z0-9]+-(.*)\.sgjournal$/.exec(name)?.[1] ?? 'sandbox';
        const { sandbox } = await this.engine.loadTimeline(
          `${decodeURIComponent(title)} (recovered)`,
          timeline,
        );
        this.journaled.set(sandbox.id, { file });
        out.push({ sandbox, steps, file });
      } catch (err) {
        // Unreadable: keep it for a person to look at, out of the way of the next recovery.
        this.warn(`journal ${name} not recovered: ${(err as Error).message}`);
        fs.renameSync(file, `${file}.unreadable`);
      }
    }
    return out;
  }

  /** Starts journaling every sandbox the engine creates from now on (and the live ones). */
  async attach(): Promise<void> {
    // Loaded first, so each journal starts as its sandbox is announced, before its first step.
    await this.engine.loadTimelineFormat();
    const client = this.engine.bus.connect('agent', (event: ApiEvent) => {
      if (event.type === 'sandboxes') this.sync(event.sandboxes);
    });
    this.detach = () => client.close();
    void this.engine.call('listSandboxes', {}).then((list) => this.sync(list));
  }

  /** Stops journaling; the files stay (a clean shutdown calls `clear()` first). */
  close(): void {
    this.detach?.();
    for (const j of this.journaled.values()) this.end(j);
    this.journaled.clear();
  }

  /** A clean end: no sandbox is to come back, so every journal goes. */
  clear(): void {
    for (const j of this.journaled.values()) {
      this.end(j);
      fs.rmSync(j.file, { force: true });
    }
    this.journaled.clear();
  }

  private sync(list: readonly SandboxInfo[]): void {
    const live = new Set(list.map((s) => s.id));
    for (const [id, j] of this.journaled) {
      if (live.has(id)) continue;
      this.end(j);
      fs.rmSync(j.file, { force: true });
      this.journaled.delete(id);
    }
    for (const s of list) if (!this.journaled.has(s.id)) this.start(s);
  }

  private start(s: SandboxInfo): void {
    const file = path.join(
      this.dir,
      `${String(Date.now())}-${s.id.replace(/[^A-Za-z0-9]/g, '')}-${encodeURIComponent(s.name).slice(0, 100)}${SUFFIX}`,
    );
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx', 0o600);
    } catch (err) {
      this.warn(`sandbox ${s.id} is not journaled: ${(err as Error).message}`);
      return;
    }
    // Listed at once, so a sync while the journal starts neither starts it again nor misses its end.
    const j: Journaled = { file, fd };
    this.journaled.set(s.id, j);
    // After `end` the fd is closed and its number may be another file's: write nothing then.
    const append = (bytes: Uint8Array): void => {
      if (!j.ended) fs.writeSync(fd, bytes);
    };
    this.engine.journalTimeline(s.id, append).then(
      (stop) => {
        if (j.ended) stop();
        else j.stop = stop;
      },
      (err: unknown) => {
        if (this.journaled.get(s.id) === j) this.journaled.delete(s.id);
        this.end(j);
        fs.rmSync(file, { force: true });
        this.warn(`sandbox ${s.id} is not journaled: ${(err as Error).message}`);
      },
    );
  }

  private end(j: Journaled): void {
    if (j.ended) return;
    j.ended = true;
    j.stop?.();
    if (j.fd !== undefined) fs.closeSync(j.fd);
  }
}
