/** Signal numbers (Linux numbering, as WASI's proc_raise uses) and their default actions. */

export const SIG = {
  HUP: 1,
  INT: 2,
  QUIT: 3,
  ABRT: 6,
  KILL: 9,
  USR1: 10,
  SEGV: 11,
  USR2: 12,
  PIPE: 13,
  ALRM: 14,
  TERM: 15,
  CHLD: 17,
  CONT: 18,
  STOP: 19,
  TSTP: 20,
  TTIN: 21,
  TTOU: 22,
  WINCH: 28,
} as const;

export const NSIG = 64;

/** Dispositions as `sandglass.sigaction` takes them. */
export const DISP_DEFAULT = 0;
export const DISP_IGNORE = 1;
export const DISP_CATCH = 2;

/**
 * What the default action of `sig` is. Stop signals stop a process at its
 * next syscall (a worker cannot be paused mid-instruction, so a program
 * spinning without syscalls keeps running until it makes one); CONT resumes.
 */
export function defaultAction(sig: number): 'terminate' | 'ignore' | 'stop' | 'continue' {
  switch (sig) {
    case SIG.CHLD:
    case SIG.WINCH:
    case 23: // URG
      return 'ignore';
    case SIG.CONT:
      return 'continue';
    case SIG.STOP:
    case SIG.TSTP:
    case SIG.TTIN:
    case SIG.TTOU:
      return 'stop';
    default:
      return 'terminate';
  }
}

const names: Record<number, string> = Object.fromEntries(
  Object.entries(SIG).map(([k, v]) => [v, `SIG${k}`]),
);

export function signalName(sig: number): string {
  return names[sig] ?? `signal ${sig}`;
}

export function isValidSignal(sig: number): boolean {
  return Number.isInteger(sig) && sig >= 0 && sig < NSIG;
}
