/**
 * POLL: wait until one of the fds is ready or the timeout passes. Payload:
 * count x (fd u32, kind u8: 0 read / 1 write); answer per entry: errno u16,
 * ready u8, hup u8, nbytes u32. A pure sleep (no fds) ends early on a caught
 * signal; a poll with fds gets EINTR.
 */
import { Errno, KernelError } from '../../base/errno.js';
import { Notifier } from '../../base/notifier.js';
import { Sys } from '../../base/syscalls.js';
import type { OpenFile } from '../../fd/openFile.js';
import { a, type Handler } from './common.js';

interface Sub {
  readonly file: OpenFile | undefined;
  readonly write: boolean;
}

function answer(subs: readonly Sub[]): { data: Uint8Array; ready: number } {
  const out = new Uint8Array(subs.length * 8);
  const dv = new DataView(out.buffer);
  let ready = 0;
  subs.forEach((s, i) => {
    if (!s.file) {
      dv.setUint16(i * 8, Errno.EBADF, true);
      ready++;
      return;
    }
    const r = s.file.readiness();
    const ok = s.write ? r.writable : r.readable;
    if (ok) ready++;
    dv.setUint8(i * 8 + 2, ok ? 1 : 0);
    dv.setUint8(i * 8 + 3, r.hup ? 1 : 0);
    dv.setUint32(i * 8 + 4, Math.min(r.nbytes, 0xffffffff), true);
  });
  return { data: out, ready };
}

export const pollHandlers: Record<number, Handler> = {
  [Sys.POLL]: async (_k, p, args, payload) => {
    const timeout = a(args, 0);
    const n = Math.min(a(args, 1), Math.floor(payload.length / 5));
    const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
    const subs: Sub[] = [];
    for (let i = 0; i < n; i++) {
      const fd = dv.getUint32(i * 5, true);
      subs.push({
        file: p.fds.has(fd) ? p.fds.get(fd) : undefined,
        write: dv.getUint8(i * 5 + 4) === 1,
      });
    }
    if (n === 0) {
      await p.sleep(undefined, timeout);
      return { errno: 0, rets: [0], data: new Uint8Array(0) };
    }
    const first = answer(subs);
    if (first.ready > 0 || timeout === 0)
      return { errno: 0, rets: [first.ready], data: first.data };
    const any = new Notifier();
    // One armed callback per file at a time; all cancelled when the poll ends.
    const armed = new Map<OpenFile, () => void>();
    try {
      const r = await p.block(
        () => {
          const ans = answer(subs);
          if (ans.ready > 0) return ans;
          for (const s of subs) {
            const f = s.file;
            if (!f?.changed || armed.has(f)) continue;
            armed.set(
              f,
              f.changed.once(() => {
                armed.delete(f);
                any.notify();
              }),
            );
          }
          return null;
        },
        any,
        false,
        timeout,
      );
      return { errno: 0, rets: [r.ready], data: r.data };
    } catch (e) {
      if (e instanceof KernelError && e.errno === Errno.ETIMEDOUT) {
        const ans = answer(subs);
        return { errno: 0, rets: [ans.ready], data: ans.data };
      }
      throw e;
    } finally {
      for (const cancel of armed.values()) cancel();
    }
  },
};
