/**
 * What GuestFiles answers without a call: a file's end once after a read
 * reached it (while no file data or offset moved), and the stat that came
 * with an open (only right after it).
 */
import { describe, expect, it } from 'vitest';
import { STAT_SLOTS, Sys } from '../base/syscalls.js';
import type { ChannelClient } from '../channel/client.js';
import { GuestFiles } from './guestFiles.js';

const enc = new TextEncoder();
const FILE = { dirfd: 3, follow: 1, oflags: 0, fdflags: 0, read: true, write: false };

/** A channel whose OPEN of a regular file answers fd 5 with its stat, and whose data stamp we move. */
function fakeChannel(): { sys: ChannelClient; ops: number[]; setData(v: number): void } {
  let data = 7;
  const ops: number[] = [];
  const sys = {
    calls: 0,
    rets: new Float64Array(12),
    data: new Uint8Array(0),
    dataVersion: () => data,
    epoch: () => 1,
    call(op: number, args: number[]): number {
      this.calls++;
      ops.push(op);
      if (op === Sys.OPEN) {
        this.rets.set([5, 0, 0, -1, 0, 1]);
        const slots = Float64Array.from({ length: STAT_SLOTS }, (_, i) => 100 + i);
        this.data = args[8] === 1 ? new Uint8Array(slots.buffer) : new Uint8Array(0);
      }
      return 0;
    },
    deferClose(): void {},
  };
  return { sys: sys as unknown as ChannelClient, ops, setData: (v) => (data = v) };
}

describe('GuestFiles', () => {
  it('answers the fstat right after an open from the open, once', () => {
    const ch = fakeChannel();
    const files = new GuestFiles(ch.sys);
    expect(files.open(FILE, enc.encode('f'))).toBe(5);
    expect(ch.ops).toEqual([Sys.OPEN]);
    const st = files.fstat(5);
    expect(st && [...st]).toEqual(Array.from({ length: STAT_SLOTS }, (_, i) => 100 + i));
    expect(files.fstat(5)).toBeUndefined();
  });

  it('drops the open stat after any other call, a close or another fd', () => {
    const ch = fakeChannel();
    const files = new GuestFiles(ch.sys);
    files.open(FILE, enc.encode('f'));
    ch.sys.call(Sys.READ, [5, 10]);
    expect(files.fstat(5)).toBeUndefined();
    files.open(FILE, enc.encode('f'));
    expect(files.fstat(4)).toBeUndefined();
    files.open(FILE, enc.encode('f'));
    files.close(5);
    expect(files.fstat(5)).toBeUndefined();
  });

  it('knows a file is still at its end across calls while the data stamp holds, once', () => {
    const ch = fakeChannel();
    const files = new GuestFiles(ch.sys);
    files.sawEnd(5);
    ch.sys.call(Sys.WRITE, [1]); // to a pipe: no file changed
    expect(files.atEnd(6)).toBe(false);
    expect(files.atEnd(5)).toBe(true);
    expect(files.atEnd(5)).toBe(false); // the next read asks the kernel
  });

  it('asks again once a file changed or an offset moved anywhere', () => {
    const ch = fakeChannel();
    const files = new GuestFiles(ch.sys);
    files.sawEnd(5);
    ch.sys.call(Sys.WRITE, [1]);
    ch.setData(8);
    expect(files.atEnd(5)).toBe(false);
    // With no call in between, the read that reached the end is the last word.
    files.sawEnd(5);
    ch.setData(9);
    expect(files.atEnd(5)).toBe(true);
    files.sawEnd(5);
    files.replaced(5);
    expect(files.atEnd(5)).toBe(false);
  });
});
