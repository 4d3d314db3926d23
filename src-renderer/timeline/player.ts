/**
 * Playback of recorded steps at their recorded timing: each step's terminal
 * frames are written at their offsets (divided by the speed), then the pause
 * the recording had before the next step (capped, so an idle hour does not
 * stall a replay). Nothing is re-executed; the player only schedules writes
 * and tells its owner which step is current. Time comes from an injectable
 * clock so tests run it instantly.
 */

export interface PlayerFrame {
  t: number;
  data: string;
}

export interface PlayerStep {
  id: string;
  startedAt: number;
}

export interface PlayerHooks {
  /** Loads a step's recorded frames (may be empty). */
  frames(stepId: string): Promise<PlayerFrame[]>;
  /** A step starts playing: the view selects it and clears what the previous step wrote. */
  enter(stepId: string): void;
  /** One recorded chunk of terminal output. */
  write(data: string): void;
  /** Playback stopped: at the end, or paused. */
  stopped(atEnd: boolean): void;
  /** Playback speed (2 = twice as fast), read at every wait so it can change while playing. */
  speed(): number;
}

export interface Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Longest pause between two steps, before the speed applies. */
export const MAX_GAP_MS = 2000;

export class Player {
  private timer: unknown = null;
  private run = 0;

  constructor(
    private readonly steps: readonly PlayerStep[],
    private readonly hooks: PlayerHooks,
    private readonly clock: Clock = {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
    },
  ) {}

  get playing(): boolean {
    return this.run !== 0;
  }

  /** Plays from step index `from` to the end. */
  play(from: number): void {
    this.pause();
    const run = ++Player.runs;
    this.run = run;
    void this.playFrom(run, Math.max(0, from));
  }

  pause(): void {
    if (this.run === 0) return;
    this.run = 0;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.hooks.stopped(false);
  }

  private static runs = 0;

  private wait(run: number, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      this.timer = this.clock.setTimeout(
        () => {
          this.timer = null;
          resolve(this.run === run);
        },
        Math.max(0, ms / Math.max(0.01, this.hooks.speed())),
      );
    });
  }

  private async playFrom(run: number, from: number): Promise<void> {
    for (let index = from; ; index++) {
      const step = this.steps[index];
      if (!step) break;
      this.hooks.enter(step.id);
      let frames: PlayerFrame[];
      try {
        frames = await this.hooks.frames(step.id);
      } catch {
        frames = [];
      }
      if (this.run !== run) return;
      let at = 0;
      for (const frame of frames) {
        if (frame.t > at && !(await this.wait(run, frame.t - at))) return;
        at = Math.max(at, frame.t);
        this.hooks.write(frame.data);
      }
      const next = this.steps[index + 1];
      if (!next) break;
      const gap = Math.min(MAX_GAP_MS, Math.max(0, next.startedAt - step.startedAt - at));
      if (!(await this.wait(run, gap))) return;
    }
    this.run = 0;
    this.hooks.stopped(true);
  }
}
