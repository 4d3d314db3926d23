/**
 * Hostile timeline files given to `loadTimeline`: corrupt, truncated, zip
 * bombs (honest and lying directories), path traversal in entry names,
 * forged hashes and graphs. Each must be refused with EBADTIMELINE and a
 * message naming the problem, create no sandbox, and leave the engine well.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { useArena } from './arena.js';

const built = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

/** Rewrites the 32-bit "uncompressed size" of every entry in both zip headers. */
function lieAboutSizes(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 30 < out.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50) view.setUint32(i + 22, size, true);
    if (sig === 0x02014b50) view.setUint32(i + 24, size, true);
  }
  return out;
}

describe.skipIf(!built)('hostile timeline files', () => {
  const arena = useArena();
  let good: Uint8Array;
  let entries: Record<string, Uint8Array>;

  beforeAll(async () => {
    const a = arena();
    await a.run('echo hello > /tmp/a.txt');
    const saved = await a.call('saveTimeline', { sandboxId: a.target.id });
    good = new Uint8Array(Buffer.from(saved.base64, 'base64'));
    entries = unzipSync(good);
  });

  /** The saved file with entries replaced, added (a value) or removed (null). */
  function edited(changes: Record<string, Uint8Array | string | null>): Uint8Array {
    const files: Zippable = {};
    for (const [name, data] of Object.entries(entries)) files[name] = [data, { level: 0 }];
    for (const [name, data] of Object.entries(changes)) {
      if (data === null) delete files[name];
      else files[name] = [typeof data === 'string' ? strToU8(data) : data, { level: 0 }];
    }
    return zipSync(files);
  }

  const manifestWith = (change: (m: Record<string, unknown>) => void): string => {
    const m = JSON.parse(Buffer.from(entries['manifest.json'] ?? []).toString()) as Record<
      string,
      unknown
    >;
    change(m);
    return JSON.stringify(m);
  };

  const FILES: Record<string, [file: () => Uint8Array, says: RegExp]> = {
    'empty file': [() => new Uint8Array(0), /not a zip archive/],
    'a PNG renamed .sgtl': [
      () =>
        new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(40).fill(0)]),
      /not a zip archive/,
    ],
    'truncated to half': [() => good.slice(0, good.length >> 1), /corrupt or truncated|missing/],
    'truncated by one byte': [() => good.slice(0, good.length - 1), /corrupt or truncated|missing/],
    'bytes flipped in the middle': [
      () => {
        // Inside the largest blob's bytes (blobs are stored, so they appear
        // as they are; the file's layout differs from run to run with its
        // timings, so a fixed offset could land in a local header's fields,
        // which the reader does not use): its name no longer matches them.
        const [, data] = Object.entries(entries)
          .filter(([name]) => name.startsWith('blobs/'))
          .sort((x, y) => y[1].length - x[1].length)[0] ?? [undefined, new Uint8Array(0)];
        const b = good.slice();
        const at = Buffer.from(b.buffer).indexOf(Buffer.from(data.subarray(0, 32)));
        if (data.length < 32 || at < 0) throw new Error('the saved file has no blob to corrupt');
        for (let i = at; i < at + Math.min(64, data.length); i++) b[i] = (b[i] ?? 0) ^ 0xff;
        return b;
      },
      /timeline file/,
    ],
    'entry named ../../evil': [() => edited({ '../../evil': 'x' }), /climbs out/],
    'entry with an absolute path': [() => edited({ '/etc/passwd': 'x' }), /absolute path/],
    'entry with a drive letter': [() => edited({ 'C:/evil': 'x' }), /absolute path/],
    'entry with a backslash': [() => edited({ 'blobs\\..\\evil': 'x' }), /backslash/],
    'entry name with NUL': [() => edited({ 'blobs/a\0b': 'x' }), /NUL/],
    'an unknown entry': [
      () => edited({ 'run.sh': 'rm -rf /' }),
      /not an entry a timeline file has/,
    ],
    // The directory's claims are checked before a byte is inflated, so a
    // claim stands in for the bomb it announces.
    'zip bomb announcing 4 GB': [
      () =>
        lieAboutSizes(
          zipSync({ 'manifest.json': [new Uint8Array(4096), { level: 9 }] }),
          2 ** 32 - 1,
        ),
      /inflates to \d+ bytes, more than/,
    ],
    'zip bomb announcing a ratio deflate cannot reach': [
      () =>
        lieAboutSizes(zipSync({ 'manifest.json': [new Uint8Array(4096), { level: 9 }] }), 32 << 20),
      /compression ratio over/,
    ],
    'zip bomb whose directory claims small sizes': [
      () =>
        lieAboutSizes(zipSync({ 'manifest.json': [new Uint8Array(8 << 20), { level: 1 }] }), 100),
      /timeline file/,
    ],
    'commit.json missing (an interrupted save)': [
      () => edited({ 'commit.json': null }),
      /commit\.json is missing/,
    ],
    'manifest.json not JSON': [() => edited({ 'manifest.json': '{"format":' }), /timeline file/],
    'manifest of a future version': [
      () => edited({ 'manifest.json': manifestWith((m) => (m.version = 999)) }),
      /manifest\.json/,
    ],
    'manifest of another format': [
      () => edited({ 'manifest.json': manifestWith((m) => (m.format = 'evil')) }),
      /manifest\.json/,
    ],
    'a blob whose bytes do not match its name': [
      () => {
        const blob = Object.keys(entries).find((n) => n.startsWith('blobs/'));
        return edited(blob ? { [blob]: 'tampered' } : { 'blobs/00': 'x' });
      },
      /timeline file/,
    ],
    'a deflated blob (blobs are stored)': [
      () => {
        const files: Zippable = {};
        for (const [n, d] of Object.entries(entries))
          files[n] = [d, { level: n.startsWith('blobs/') ? 6 : 0 }];
        return zipSync(files);
      },
      /timeline file/,
    ],
    'raw deflate instead of a zip': [() => deflateSync(good), /not a zip archive/],
  };

  it.each(Object.entries(FILES))('%s', { timeout: 60_000 }, async (_name, [file, says]) => {
    const a = arena();
    const before = (await a.call('listSandboxes', {})).length;
    const heap = process.memoryUsage().heapUsed;
    await expect(
      a.call('loadTimeline', { name: 'evil', base64: Buffer.from(file()).toString('base64') }),
    ).rejects.toMatchObject({ code: 'EBADTIMELINE', message: expect.stringMatching(says) });
    expect((await a.call('listSandboxes', {})).length).toBe(before);
    // Nothing was inflated for nothing: the heap did not take a bomb's size.
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(256 * 1024 * 1024);
  });

  it('the untouched file still loads (the cases above differ only by their attack)', async () => {
    const a = arena();
    const { sandbox } = await a.call('loadTimeline', {
      name: 'replay',
      base64: Buffer.from(good).toString('base64'),
    });
    await a.call('destroySandbox', { sandboxId: sandbox.id });
  });
});
