import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../contract/api.js';
import { Uploads, type UploadBatch, type UploadHost } from './uploads.js';

function fakeHost() {
  const files = new Map<string, string>();
  const dirs: string[] = [];
  const steps: string[] = [];
  const events: ApiEvent[] = [];
  const host: UploadHost = {
    check: (id) => {
      if (id !== 'sb') throw new Error(`no sandbox ${id}`);
    },
    writeFile: async (_id, path, data) => {
      files.set(path, Buffer.from(data).toString());
    },
    mkdirp: async (_id, path) => {
      dirs.push(path);
    },
    record: async (_id, command) => {
      steps.push(command);
    },
    publish: (_id, event) => events.push(event),
  };
  return { host, files, dirs, steps, events };
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

function batch(files: Array<[string, string]>, last: boolean): UploadBatch {
  return {
    sandboxId: 'sb',
    importId: 'up1',
    dir: '/tmp/in',
    files: files.map(([path, text]) => ({ path, base64: b64(text) })),
    totalFiles: 3,
    totalBytes: 9,
    last,
  };
}

describe('Uploads', () => {
  it('writes batches, reports progress of the totals, and records one step at the end', async () => {
    const { host, files, dirs, steps, events } = fakeHost();
    const uploads = new Uploads(host);
    expect(await uploads.write(batch([['a.txt', 'aaa']], false))).toEqual({ files: 1, bytes: 3 });
    expect(steps).toEqual([]);
    await uploads.write(
      batch(
        [
          ['sub/b.txt', 'bbb'],
          ['sub/c.txt', 'ccc'],
        ],
        true,
      ),
    );
    expect([...files]).toEqual([
      ['/tmp/in/a.txt', 'aaa'],
      ['/tmp/in/sub/b.txt', 'bbb'],
      ['/tmp/in/sub/c.txt', 'ccc'],
    ]);
    expect(dirs).toEqual(['/tmp/in', '/tmp/in/sub']);
    expect(steps).toEqual(['import 3 files into /tmp/in']);
    expect(events.map((e) => e.type === 'importProgress' && [e.files, e.bytes, e.state])).toEqual([
      [1, 3, 'running'],
      [3, 9, 'done'],
    ]);
  });

  it('refuses paths leaving the directory', async () => {
    const { host, files } = fakeHost();
    const uploads = new Uploads(host);
    await expect(uploads.write(batch([['../escape', 'x']], true))).rejects.toMatchObject({
      code: 'EINVAL',
    });
    expect(files.size).toBe(0);
  });

  it('stops on cancel: later batches fail, what was written is recorded', async () => {
    const { host, files, steps, events } = fakeHost();
    const uploads = new Uploads(host);
    await uploads.write(batch([['a.txt', 'aaa']], false));
    uploads.cancel('sb', 'up1');
    await expect(uploads.write(batch([['b.txt', 'bbb']], true))).rejects.toMatchObject({
      code: 'ECANCELED',
    });
    expect([...files.keys()]).toEqual(['/tmp/in/a.txt']);
    expect(steps).toEqual(['import 1 file into /tmp/in (cancelled)']);
    expect(events.at(-1)).toMatchObject({ type: 'importProgress', state: 'cancelled', files: 1 });
  });

  it('records a cancel between batches at once, and refuses later batches of the same upload', async () => {
    const { host, files, steps } = fakeHost();
    const uploads = new Uploads(host);
    await uploads.write(batch([['a.txt', 'aaa']], false));
    uploads.cancel('sb', 'up1');
    await new Promise((r) => setTimeout(r, 0));
    expect(steps).toEqual(['import 1 file into /tmp/in (cancelled)']);
    await expect(uploads.write(batch([['b.txt', 'bbb']], false))).rejects.toMatchObject({
      code: 'ECANCELED',
    });
    expect(files.size).toBe(1);
  });
});
