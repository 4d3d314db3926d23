/** Start jobs through a worker's channel: what the kernel writes is what the worker reads. */
import { describe, expect, it } from 'vitest';
import { ChannelView, DATA_SIZE } from '../../channel/layout.js';
import { readJob, writeJob, type ChannelJob } from './jobChannel.js';

const enc = new TextEncoder();

describe('jobChannel', () => {
  it('carries a job through the channel, copied out of the data area', () => {
    const view = ChannelView.create();
    const job: ChannelJob = {
      moduleId: 7,
      role: 'shell',
      name: 'sh-ü',
      argv: [enc.encode('sh'), new Uint8Array(0), Uint8Array.from([0xff, 0, 1])],
      env: [enc.encode('A=1'), enc.encode('PWD=/tmp')],
      memory: { initial: 25, maximum: 4096 },
    };
    expect(writeJob(view, job)).toBe(true);
    const got = readJob(view);
    expect(got).toEqual(job);
    view.data.fill(0);
    expect(got.argv[2]).toEqual(Uint8Array.from([0xff, 0, 1]));
    const { memory: _, ...noMemory } = job;
    expect(writeJob(view, noMemory)).toBe(true);
    expect(readJob(view)).toEqual(noMemory);
  });

  it('refuses a job bigger than the data area (it goes as a message)', () => {
    const view = ChannelView.create();
    const big = new Uint8Array(DATA_SIZE);
    expect(writeJob(view, { moduleId: 1, role: 'utility', name: 'x', argv: [big], env: [] })).toBe(
      false,
    );
  });
});
