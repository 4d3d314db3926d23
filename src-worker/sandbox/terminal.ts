/** An interactive terminal: a kernel tty with a shell on it, seen from the host. */
import { Tty } from '../tty/tty.js';
import { TtyFile } from '../tty/ttyFile.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Process } from '../proc/process.js';
import { Errno, KernelError } from '../base/errno.js';
import type { Session } from '../kernel/session.js';

export interface Terminal {
  readonly pid: number;
  /** Name of its shell session (`Sandbox.onCommand`, session states). */
  readonly session: string;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  onData(listener: (data: Uint8Array) => void): () => void;
  onExit(listener: (status: number) => void): () => void;
  close(): void;
}

export async function openTerminal(
  k: Kernel,
  opts: {
    cols: number;
    rows: number;
    path: string;
    argv: string[];
    env: Uint8Array[];
    cwd?: string;
    session: Session;
  },
): Promise<Terminal> {
  const dataListeners = new Set<(d: Uint8Array) => void>();
  const exitListeners = new Set<(s: number) => void>();
  let backlog: Uint8Array[] = [];
  const tty = new Tty(
    {
      output: (d) => {
        if (dataListeners.size === 0) backlog.push(d);
        for (const l of dataListeners) l(d);
      },
      signal: (pgrp, sig) => {
        try {
          k.signalGroup(pgrp, sig);
        } catch (e) {
          if (!(e instanceof KernelError && e.errno === Errno.ESRCH)) throw e;
        }
      },
    },
    opts.cols,
    opts.rows,
  );
  const enc = new TextEncoder();
  const file = new TtyFile(tty);
  const proc: Process = await k.spawn({
    path: opts.path,
    argv: opts.argv.map((a) => enc.encode(a)),
    env: opts.env,
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
    fds: [
      [0, file],
      [1, file],
      [2, file],
    ],
    pgid: 0,
    tty,
    foreground: true,
    wallTimeMs: 0,
    session: opts.session,
  });
  let exitStatus: number | undefined;
  void proc.exited().then((e) => {
    exitStatus = e.code ?? 128 + (e.signal ?? 0);
    tty.hangup();
    for (const l of exitListeners) l(exitStatus);
  });
  return {
    pid: proc.pid,
    session: opts.session.name,
    write: (d) => tty.input(typeof d === 'string' ? enc.encode(d) : d),
    resize: (cols, rows) => tty.resize(cols, rows),
    onData: (l) => {
      dataListeners.add(l);
      const b = backlog;
      backlog = [];
      for (const d of b) l(d);
      return () => dataListeners.delete(l);
    },
    onExit: (l) => {
      exitListeners.add(l);
      if (exitStatus !== undefined) l(exitStatus);
      return () => exitListeners.delete(l);
    },
    close: () => {
      tty.hangup();
      k.signal(proc, 1 /* SIGHUP */);
    },
  };
}
