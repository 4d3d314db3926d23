/**
 * A small /proc, generated on every lookup: self, <pid>/{cmdline, environ,
 * status, cwd}, cpuinfo, meminfo, uptime, version. Read-only.
 */
import { cpus, totalmem, freemem } from 'node:os';
import type { Process } from '../proc/process.js';

export type ProcNode =
  | { readonly kind: 'file'; readonly data: Uint8Array }
  | { readonly kind: 'dir'; readonly entries: readonly string[] }
  | { readonly kind: 'symlink'; readonly target: string };

export interface ProcView {
  readonly self: Process;
  readonly processes: () => Iterable<Process>;
  readonly bootTime: number;
  readonly memoryLimit: number;
}

const enc = new TextEncoder();
const text = (s: string): ProcNode => ({ kind: 'file', data: enc.encode(s) });

function joinNul(list: readonly Uint8Array[]): Uint8Array {
  const n = list.reduce((s, a) => s + a.length + 1, 0);
  const out = new Uint8Array(n);
  let off = 0;
  for (const a of list) {
    out.set(a, off);
    off += a.length + 1;
  }
  return out;
}

function pidNode(p: Process, rest: string[]): ProcNode | undefined {
  if (rest.length === 0) return { kind: 'dir', entries: ['cmdline', 'cwd', 'environ', 'status'] };
  if (rest.length > 1) return undefined;
  switch (rest[0]) {
    case 'cmdline':
      return { kind: 'file', data: joinNul(p.argv) };
    case 'environ':
      return { kind: 'file', data: joinNul(p.env) };
    case 'cwd':
      return { kind: 'symlink', target: p.cwd };
    case 'status':
      return text(
        `Name:\t${p.name}\nState:\t${p.alive ? 'R (running)' : 'Z (zombie)'}\nPid:\t${p.pid}\nPPid:\t${p.ppid}\n` +
          `Pgid:\t${p.pgid}\nUid:\t${p.cred.uid}\t${p.cred.uid}\t${p.cred.uid}\t${p.cred.uid}\n` +
          `Gid:\t${p.cred.gid}\t${p.cred.gid}\t${p.cred.gid}\t${p.cred.gid}\n`,
      );
    default:
      return undefined;
  }
}

/** Look up an absolute, lexically normalized path under /proc. */
export function procLookup(view: ProcView, path: string): ProcNode | undefined {
  const parts = path.split('/').filter((s) => s.length > 0);
  if (parts[0] !== 'proc') return undefined;
  const rest = parts.slice(1);
  if (rest.length === 0) {
    const pids = [...view.processes()].filter((p) => p.alive).map((p) => String(p.pid));
    return { kind: 'dir', entries: ['cpuinfo', 'meminfo', 'self', 'uptime', 'version', ...pids] };
  }
  const head = rest[0] as string;
  if (head === 'self') {
    if (rest.length === 1) return { kind: 'symlink', target: `/proc/${view.self.pid}` };
    return pidNode(view.self, rest.slice(1));
  }
  if (/^\d+$/.test(head)) {
    const pid = Number(head);
    for (const p of view.processes())
      if (p.pid === pid && p.alive) return pidNode(p, rest.slice(1));
    return undefined;
  }
  if (rest.length > 1) return undefined;
  switch (head) {
    case 'cpuinfo':
      // The count (nproc sizes work by it), never the host's CPU model or speed.
      return text(
        Array.from(
          { length: Math.max(1, cpus().length) },
          (_, i) => `processor\t: ${i}\nmodel name\t: Sandglass virtual CPU (wasm32)\n\n`,
        ).join(''),
      );
    case 'meminfo': {
      const total = Math.min(totalmem(), view.memoryLimit || totalmem());
      const free = Math.min(freemem(), total);
      return text(
        `MemTotal:       ${Math.floor(total / 1024)} kB\nMemFree:        ${Math.floor(free / 1024)} kB\n` +
          `MemAvailable:   ${Math.floor(free / 1024)} kB\n`,
      );
    }
    case 'uptime': {
      const up = (performance.now() - view.bootTime) / 1000;
      return text(`${up.toFixed(2)} ${up.toFixed(2)}\n`);
    }
    case 'version':
      return text('Sandglass version 0.1.0 (wasm32-wasi kernel in TypeScript) #1\n');
    default:
      return undefined;
  }
}
