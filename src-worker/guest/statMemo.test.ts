/** The stat memo answers an extended stat only for the same path, follow flag and namespace version. */
import { describe, expect, it } from 'vitest';
import { ROOT_FD } from '../base/syscalls.js';
import type { ChannelClient } from '../channel/client.js';
import { StatMemo } from './statMemo.js';

const enc = new TextEncoder();

/** The two things the memo reads from a channel: the last reply's slots and the epoch word. */
function fakeChannel(): { sys: ChannelClient; rets: Float64Array; setEpoch(e: number): void } {
  const rets = new Float64Array(12);
  let epoch = 1;
  const sys = { rets, epoch: () => epoch } as unknown as ChannelClient;
  return { sys, rets, setEpoch: (e) => (epoch = e) };
}

describe('StatMemo', () => {
  it('keeps nlink, mode, uid, gid of a root-relative stat', () => {
    const ch = fakeChannel();
    ch.rets.set([0, 0, 0, 2, 0, 0, 0, 0, 0o100644, 1000, 100]);
    const memo = new StatMemo(ch.sys);
    memo.remember(ROOT_FD, enc.encode('home/user/./f'), 1);
    expect(memo.lookup(enc.encode('/home/user/f'), 1)).toEqual([0o100644, 1000, 100, 2]);
    expect(memo.lookup(enc.encode('home/user/f'), 0)).toBeUndefined();
    expect(memo.lookup(enc.encode('home/user/g'), 1)).toBeUndefined();
    ch.setEpoch(2);
    expect(memo.lookup(enc.encode('home/user/f'), 1)).toBeUndefined();
  });

  it('keeps nothing for paths relative to another directory or served by the kernel', () => {
    const ch = fakeChannel();
    const memo = new StatMemo(ch.sys);
    memo.remember(5, enc.encode('f'), 1);
    expect(memo.lookup(enc.encode('f'), 1)).toBeUndefined();
    memo.remember(ROOT_FD, enc.encode('proc/self/status'), 1);
    expect(memo.lookup(enc.encode('proc/self/status'), 1)).toBeUndefined();
  });
});
