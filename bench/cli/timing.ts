/** Timing one command as a new process: wall time, CPU (user+sys, children and a server process included) and peak RSS. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

export interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
  out: string;
}

/** How one implementation is run: its command, extra environment, and a process whose CPU counts too. */
export interface Command {
  argv: string[];
  env?: Record<string, string>;
  /** The warm engine: its CPU during the run is the run's as much as the client's. */
  server?: number;
}

/** user+sys CPU of a live process so far, in ms (Linux /proc). */
export function processCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return (ticks * 1000) / 100; // USER_HZ
}

/** One run: wall time, and user+sys CPU (children included) and peak RSS from GNU time. */
export function timeOnce(cmd: Command): Sample {
  const argv = cmd.argv;
  const serverBefore = cmd.server !== undefined ? processCpuMs(cmd.server) : 0;
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '@@time %e %U %S %M', ...argv], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C', HOME: os.tmpdir(), ...cmd.env },
  });
  const wallMs = performance.now() - t0; // GNU time's %e has 10 ms steps
  const serverMs = cmd.server !== undefined ? processCpuMs(cmd.server) - serverBefore : 0;
  const line = r.stderr.split('\n').find((l) => l.startsWith('@@time '));
  if (!line) throw new Error(`no timing from ${argv.join(' ')}: ${r.stderr.slice(0, 300)}`);
  const [, user, sys, rssKb] = line.slice(7).split(' ').map(Number) as number[];
  const out = r.status === 0 ? r.stdout.trim() : `exit ${r.status}: ${r.stderr.slice(0, 200)}`;
  return {
    wallMs,
    cpuMs: ((user as number) + (sys as number)) * 1000 + serverMs,
    rssMb: (rssKb as number) / 1024,
    out,
  };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

export function timeRuns(runs: number, cmd: Command): Sample {
  timeOnce(cmd);
  const s = Array.from({ length: runs }, () => timeOnce(cmd));
  return {
    wallMs: median(s.map((x) => x.wallMs)),
    cpuMs: median(s.map((x) => x.cpuMs)),
    rssMb: median(s.map((x) => x.rssMb)),
    out: (s.at(-1) as Sample).out,
  };
}

export function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}
