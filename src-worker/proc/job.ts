/**
 * A job: the processes one command started and every process they start in
 * turn, orphans included (membership is inherited at spawn, not derived from
 * the parent links, which orphaning rewrites). The command's wall-time limit
 * belongs to the job: at the deadline every live member is ended, however
 * the tree was reshaped by then. Jobs nest: a `timeout 5 cmd` inside a job
 * starts an inner job whose members count in the outer one too.
 */
import { PausableTimer } from '../base/pausableTimer.js';
import type { Process } from './process.js';

export class Job {
  private readonly members = new Set<Process>();
  private timer: PausableTimer | undefined;
  private ended = false;
  private fired = false;

  constructor(
    readonly wallTimeMs: number,
    readonly parent: Job | undefined,
    private readonly onDeadline: (job: Job) => void,
  ) {
    if (wallTimeMs > 0) {
      this.timer = new PausableTimer(wallTimeMs, () => {
        this.timer = undefined;
        this.fired = true;
        this.onDeadline(this);
      });
    }
  }

  /** Adds a process to this job and every enclosing one. */
  add(p: Process): void {
    for (const j of this.chain()) j.members.add(p);
  }

  /** A member ended: forget it here and in every enclosing job. */
  remove(p: Process): void {
    for (const j of this.chain()) {
      j.members.delete(p);
      j.settleIfDone();
    }
  }

  /** This job and every enclosing one. */
  private chain(): Job[] {
    const out: Job[] = [];
    for (let j: Job | undefined = this as Job; j; j = j.parent) out.push(j);
    return out;
  }

  /** The deadline of this job or an enclosing one has passed: nothing may join any more. */
  get expired(): boolean {
    return this.chain().some((j) => j.fired);
  }

  /** Live members, oldest first (the first is the command's own process when it is still alive). */
  live(): Process[] {
    return [...this.members].filter((p) => p.alive);
  }

  /**
   * The command that made the job has finished: no new member joins through
   * its creator, and once no member is left the deadline is dropped. Members
   * still running (background jobs, orphans) stay bounded by the deadline.
   */
  end(): void {
    this.ended = true;
    this.settleIfDone();
  }

  /** Drops the deadline now (the sandbox is going away). */
  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /**
   * A member waits for a person (a network approval): that time is not the
   * command's, here and in every enclosing job. Nested: each pause needs its resume.
   */
  pauseDeadline(): void {
    for (const j of this.chain()) j.timer?.pause();
  }

  resumeDeadline(): void {
    for (const j of this.chain()) j.timer?.resume();
  }

  private settleIfDone(): void {
    if (this.ended && this.live().length === 0) this.cancel();
  }
}
