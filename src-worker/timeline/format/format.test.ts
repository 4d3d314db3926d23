import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../api/settings.js';
import { Vfs, pathToUtf8, type SnapshotId, type Vfs as VfsApi } from '../../vfs/index.js';
import { contentHash, sha256 } from '../changes.js';
import { bytes, harness, type Harness } from '../testUtil.js';
import { buildOrigin, loadSteps } from './load.js';
import { decodeTimeline } from './read.js';
import { journalTimeline, recoverJournal } from './journal.js';
import { encodeTimeline, encodeTimelineAsync } from './write.js';

/** A timeline with a branch, a moved directory, a symlink, binary data and a released step. */
async function sample(): Promise<Harness> {
  const h = harness();
  h.sessions.states = new Map([['api', bytes('state-a')]]);
  const a = await h.step('a', (v) => {
    v.writeFile('/tmp/a.txt', bytes('alpha\n'));
    v.mkdirp('/tmp/dir/sub');
    v.writeFile('/tmp/dir/sub/x.bin', new Uint8Array([0, 1, 2, 255]));
  });
  await h.step('b', (v) => {
    v.rename('/tmp/dir', '/tmp/moved');
    v.symlink('/tmp/a.txt', '/tmp/link');
    v.chmod('/tmp/a.txt', 0o600);
  });
  await h.step('c', (v) => v.unlink('/tmp/a.txt'));
  await h.timeline.restore(a.id);
  h.sessions.states = new Map([['api', bytes('state-d')]]);
  await h.step('d', (v) => v.writeFile('/tmp/a.txt', bytes('alpha\nbeta\n')));
  const b = h.timeline.steps()[1];
  h.timeline.release(b?.id ?? '');
  return h;
}

function encode(h: Harness): Uint8Array {
  return encodeTimeline({
    name: 'sample',
    settings: DEFAULT_SETTINGS,
    timeline: h.timeline,
    store: (
      h.timeline as unknown as { options: { store: Parameters<typeof encodeTimeline>[0]['store'] } }
    ).options.store,
  }).bytes;
}

/** Every node of a snapshot as comparable text. */
function listing(vfs: VfsApi, at: SnapshotId): string[] {
  return vfs
    .diffContents(null, at)
    .filter((c) => c.kind !== 'chardev' && c.kind !== 'fifo')
    .map((c) => {
      const s = c.after;
      const content = s?.contents ? contentHash(s.contents) : '';
      return `${pathToUtf8(c.path)} ${c.kind} ${(s?.mode ?? 0).toString(8)} ${s?.target ?? ''} ${content}`;
    })
    .sort();
}

describe('timeline file round trip', () => {
  it('writes the same entries whether blobs deflate on the thread pool or in one thread', async () => {
    const h = await sample();
    const input = {
      name: 'sample',
      settings: DEFAULT_SETTINGS,
      timeline: h.timeline,
      store: (
        h.timeline as unknown as {
          options: { store: Parameters<typeof encodeTimeline>[0]['store'] };
        }
      ).options.store,
    };
    const entries = (file: Uint8Array) => {
      const all = unzipSync(file);
      delete all['manifest.json']; // holds the time of the save
      delete all['commit.json']; // holds the manifest's hash
      return all;
    };
    const sync = encodeTimeline(input);
    const async = await encodeTimelineAsync(input);
    expect(Object.keys(entries(async.bytes))).toEqual(Object.keys(entries(sync.bytes)));
    expect(entries(async.bytes)).toEqual(entries(sync.bytes));
    expect(async.summary).toEqual({ ...sync.summary, fileBytes: async.bytes.length });
    expect(decodeTimeline(async.bytes).blobs).toEqual(decodeTimeline(sync.bytes).blobs);
  });

  it('saves and loads every step’s tree, sessions, branches and head', async () => {
    const h = await sample();
    const file = encode(h);
    const data = decodeTimeline(file);
    const vfs = Vfs.createDefault();
    buildOrigin(vfs, data);
    const loaded = harness({ vfs });
    loadSteps(loaded.timeline, vfs, data);
    const before = h.timeline.steps();
    const after = loaded.timeline.steps();
    expect(after.map((s) => [s.command, s.kind, s.snapshotReleased])).toEqual(
      before.map((s) => [s.command, s.kind, s.snapshotReleased]),
    );
    expect(loaded.timeline.branches().map((b) => [b.name, b.stepCount])).toEqual(
      h.timeline.branches().map((b) => [b.name, b.stepCount]),
    );
    for (let i = 0; i < before.length; i++) {
      const x = before[i];
      const y = after[i];
      if (!x || !y || x.snapshotReleased) continue;
      expect(listing(vfs, Number(y.snapshotId)), x.command).toEqual(
        listing(h.vfs, Number(x.snapshotId)),
      );
      expect(loaded.timeline.sessionsOf(y.id)).toEqual(h.timeline.sessionsOf(x.id));
    }
    expect(loaded.timeline.head).toBe(after.at(-1)?.id);
    expect(new TextDecoder().decode(vfs.readFile('/tmp/a.txt'))).toBe('alpha\nbeta\n');
    // The moved directory came back under its new name, with its contents.
    const c = after[2];
    expect(c && vfs.fork(Number(c.snapshotId)).readFile('/tmp/moved/sub/x.bin')).toEqual(
      new Uint8Array([0, 1, 2, 255]),
    );
  });

  it('stores each distinct content once', async () => {
    const h = harness();
    const same = new Uint8Array(100_000).fill(3);
    for (let i = 0; i < 5; i++) await h.step(`w${i}`, (v) => v.writeFile(`/tmp/f${i}`, same));
    const entries = unzipSync(encode(h));
    const blobs = Object.keys(entries).filter((n) => n.startsWith('blobs/'));
    expect(blobs).toContain(`blobs/${sha256(same)}`);
    expect(blobs.filter((n) => n === `blobs/${sha256(same)}`)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------- malformed files

type Entries = Record<string, Uint8Array>;

function zip(entries: Entries): Uint8Array {
  const files: Zippable = {};
  // Blobs are stored (their bytes are deflated already), as the writer does.
  for (const [k, v] of Object.entries(entries))
    files[k] = k.startsWith('blobs/') ? [v, { level: 0 }] : v;
  return zipSync(files, { level: 6 });
}

/** Re-signs every non-blob entry in commit.json (so a test reaches the check it aims at). */
function recommit(entries: Entries): Entries {
  const commit = JSON.parse(strFromU8(entries['commit.json'] as Uint8Array)) as {
    entries: Record<string, string>;
  };
  commit.entries = {};
  for (const [name, data] of Object.entries(entries))
    if (!name.startsWith('blobs/') && name !== 'commit.json') commit.entries[name] = sha256(data);
  return { ...entries, 'commit.json': strToU8(JSON.stringify(commit)) };
}

type Json = Record<string, unknown> & { steps: Array<Record<string, unknown>> };

function editJson(entries: Entries, name: string, edit: (j: Json) => void): Entries {
  const j = JSON.parse(strFromU8(entries[name] as Uint8Array)) as Json;
  edit(j);
  return recommit({ ...entries, [name]: strToU8(JSON.stringify(j)) });
}

const manifest = (entries: Entries, edit: (m: Json) => void): Uint8Array =>
  zip(editJson(entries, 'manifest.json', edit));

/** Replaces, in both zip headers, the bytes of one name with another of the same length. */
function renameInZip(file: Uint8Array, from: string, to: string): Uint8Array {
  const out = Buffer.from(file);
  const a = Buffer.from(from);
  let at = out.indexOf(a);
  while (at >= 0) {
    Buffer.from(to).copy(out, at);
    at = out.indexOf(a, at + 1);
  }
  return new Uint8Array(out);
}

/** Where a zip header's name length and name sit, from its signature. */
const CENTRAL = { sig: [0x50, 0x4b, 0x01, 0x02], nameLenAt: 28, nameAt: 46 };
const LOCAL = { sig: [0x50, 0x4b, 0x03, 0x04], nameLenAt: 26, nameAt: 30 };

/** Patches a field (offset from the signature) of every header of that kind naming `name`. */
function patchHeader(
  header: typeof CENTRAL,
  file: Uint8Array,
  name: string,
  offset: number,
  value: number,
  size: 2 | 4,
): Uint8Array {
  const out = Buffer.from(file);
  const sig = Buffer.from(header.sig);
  for (let at = out.indexOf(sig); at >= 0; at = out.indexOf(sig, at + 4)) {
    const nameLen = out.readUInt16LE(at + header.nameLenAt);
    const nameAt = at + header.nameAt;
    if (out.toString('latin1', nameAt, nameAt + nameLen) !== name) continue;
    if (size === 4) out.writeUInt32LE(value, at + offset);
    else out.writeUInt16LE(value, at + offset);
  }
  return new Uint8Array(out);
}

/** Patches a field of the central directory entry of `name`. */
const patchCentral = (file: Uint8Array, name: string, offset: number, value: number, size: 2 | 4) =>
  patchHeader(CENTRAL, file, name, offset, value, size);

/** Patches a field of the local header of `name`. */
const patchLocal = (file: Uint8Array, name: string, offset: number, value: number, size: 2 | 4) =>
  patchHeader(LOCAL, file, name, offset, value, size);

/** A 32-bit field of the central directory entry of `name`. */
function centralField(file: Uint8Array, name: string, offset: number): number {
  const buf = Buffer.from(file);
  const sig = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = buf.indexOf(sig); at >= 0; at = buf.indexOf(sig, at + 4))
    if (buf.toString('latin1', at + 46, at + 46 + buf.readUInt16LE(at + 28)) === name)
      return buf.readUInt32LE(at + offset);
  throw new Error(`no entry ${name}`);
}

describe('timeline file validation: a corpus of malformed files', async () => {
  const h = await sample();
  const good = encode(h);
  const base = unzipSync(good);
  const firstBlob = Object.keys(base).find((n) => n.startsWith('blobs/')) as string;
  const stepTree = Object.keys(base).find((n) => n.startsWith('steps/')) as string;
  const stepIds = (JSON.parse(strFromU8(base['manifest.json'] as Uint8Array)) as Json).steps.map(
    (s) => s.id as string,
  );
  const random = (n: number) => new Uint8Array(randomBytes(n));
  const withTree = (edit: (t: Json & { set: Array<Record<string, unknown>> }) => void) =>
    zip(editJson(base, stepTree, edit as (j: Json) => void));

  const cases: Array<[string, () => Uint8Array, RegExp]> = [
    ['empty', () => new Uint8Array(0), /not a zip archive/],
    ['not a zip', () => strToU8('hello, this is not a timeline file at all'), /not a zip archive/],
    ['truncated to half', () => good.slice(0, good.length >> 1), /corrupt or truncated/],
    ['last bytes cut', () => good.slice(0, good.length - 10), /corrupt or truncated/],
    [
      'no commit.json',
      () => {
        const e = { ...base };
        delete e['commit.json'];
        return zip(e);
      },
      /commit.json is missing: the file was not finished/,
    ],
    [
      'commit.json not JSON',
      () => zip({ ...base, 'commit.json': strToU8('{oops') }),
      /commit.json is not valid JSON/,
    ],
    [
      'newer version',
      () => manifest(base, (m) => (m.version = 2)),
      /format version 2; this Sandglass reads version 1/,
    ],
    [
      'wrong format',
      () => manifest(base, (m) => (m.format = 'other')),
      /does not name the sandglass-timeline format/,
    ],
    [
      'manifest missing',
      () => {
        const e = { ...base };
        delete e['manifest.json'];
        return zip(e);
      },
      /manifest.json is missing/,
    ],
    [
      'manifest edited without commit',
      () =>
        zip({
          ...base,
          'manifest.json': strToU8(
            strFromU8(base['manifest.json'] as Uint8Array).replace('"sample"', '"other!"'),
          ),
        }),
      /manifest.json is corrupt \(its sha256 differs/,
    ],
    [
      'unlisted entry',
      () => zip({ ...base, 'recordings/zz.json': strToU8('{}') }),
      /not listed in commit.json/,
    ],
    ['path climbing out', () => zip({ ...base, '../evil': strToU8('x') }), /climbs out/],
    ['absolute entry name', () => zip({ ...base, '/etc/passwd': strToU8('x') }), /absolute path/],
    ['NUL in entry name', () => zip({ ...base, 'blobs/a\0b': strToU8('x') }), /contains NUL/],
    [
      'overlong entry name',
      () => zip({ ...base, [`blobs/${'a'.repeat(600)}`]: strToU8('x') }),
      /overlong/,
    ],
    [
      'unknown entry',
      () => zip({ ...base, 'evil.sh': strToU8('x') }),
      /not an entry a timeline file has/,
    ],
    ['backslash in entry name', () => zip({ ...base, 'steps\\x.json': strToU8('x') }), /backslash/],
    [
      'duplicate entry',
      () => {
        const blobs = Object.keys(base).filter((n) => n.startsWith('blobs/'));
        return renameInZip(good, blobs[1] as string, blobs[0] as string);
      },
      /appears twice/,
    ],
    [
      'entry claiming 2 GB',
      () => patchCentral(good, firstBlob, 24, 2_000_000_000, 4),
      /inflates to 2000000000 bytes/,
    ],
    [
      'zip bomb ratio',
      () =>
        patchCentral(
          zip({ ...base, 'recordings/bomb.json': new Uint8Array(4 * 1024 * 1024) }),
          'recordings/bomb.json',
          24,
          50 * 1024 * 1024,
          4,
        ),
      /compression ratio over 1100:1/,
    ],
    [
      'total over the cap',
      () => {
        const e: Entries = { ...base };
        const names: string[] = [];
        for (let i = 0; i < 6; i++) {
          const data = random(200 * 1024 + i);
          const name = `blobs/${sha256(data)}`;
          e[name] = data;
          names.push(name);
        }
        let f = zip(e);
        for (const n of names) f = patchCentral(f, n, 24, 200 * 1024 * 1024, 4);
        return f;
      },
      /inflate to more than 1073741824 bytes in all/,
    ],
    [
      'unknown compression',
      () => patchCentral(good, 'manifest.json', 10, 99, 2),
      /compression method 99/,
    ],
    [
      'duplicate step ids',
      () => manifest(base, (m) => (m.steps[1] = { ...m.steps[1], id: m.steps[0]?.id })),
      /step id st\d+ appears twice/,
    ],
    [
      'unknown parent',
      () => manifest(base, (m) => ((m.steps[1] as Record<string, unknown>).parentId = 'nope')),
      /unknown parent nope/,
    ],
    [
      'graph cycle',
      () => manifest(base, (m) => ((m.steps[0] as Record<string, unknown>).parentId = stepIds[1])),
      /cycle/,
    ],
    [
      'parent after child',
      () => manifest(base, (m) => m.steps.unshift(m.steps.pop() as Record<string, unknown>)),
      /listed before its parent/,
    ],
    [
      'unknown branch',
      () => manifest(base, (m) => ((m.steps[0] as Record<string, unknown>).branchId = 'nobranch')),
      /unknown branch nobranch/,
    ],
    [
      'head not a step',
      () => manifest(base, (m) => (m.head = 'ghost')),
      /head ghost is not a step/,
    ],
    [
      'absurd step count',
      () =>
        manifest(base, (m) => {
          m.steps = Array.from({ length: 100_001 }, () => m.steps[0] as Record<string, unknown>);
        }),
      /manifest.json: steps/,
    ],
    [
      'commit count mismatch',
      () => zip(editJson(base, 'commit.json', (c) => (c.steps = 99 as unknown as Json['steps']))),
      /counts 99 steps/,
    ],
    [
      'hostile path ..',
      () => withTree((t) => t.set.push({ ...t.set[0], path: '/tmp/../../etc/passwd' })),
      /is not normalised/,
    ],
    [
      'relative path',
      () => withTree((t) => t.set.push({ ...t.set[0], path: 'etc/passwd' })),
      /is not absolute/,
    ],
    [
      'NUL in a path',
      () => withTree((t) => t.set.push({ ...t.set[0], path: '/tmp/a\0b' })),
      /contains NUL/,
    ],
    [
      'overlong path',
      () => withTree((t) => t.set.push({ ...t.set[0], path: `/${'a/'.repeat(2500)}x` })),
      /longer than 4096/,
    ],
    [
      'overlong name',
      () => withTree((t) => t.set.push({ ...t.set[0], path: `/${'n'.repeat(300)}` })),
      /longer than 255 bytes/,
    ],
    [
      'a blob that does not inflate',
      () => zip({ ...base, [firstBlob]: strToU8('tampered') }),
      /blobs\/[0-9a-f]+ is corrupt \(cannot inflate\)/,
    ],
    [
      'blob contents differ from name',
      () => zip({ ...base, [firstBlob]: new Uint8Array(deflateRawSync(strToU8('tampered'))) }),
      /contents do not match its name/,
    ],
    [
      'a deflated blob entry',
      () => zipSync({ ...base, [firstBlob]: [base[firstBlob] as Uint8Array, { level: 6 }] }),
      /blobs are stored/,
    ],
    [
      'missing blob',
      () => {
        const e = { ...base };
        delete e[firstBlob];
        return zip(
          editJson(
            e,
            'commit.json',
            (c) => (c.blobs = ((c.blobs as unknown as number) - 1) as unknown as Json['steps']),
          ),
        );
      },
      /refers to missing blob/,
    ],
    [
      'tree of a released step',
      () => {
        const released = h.timeline.steps().find((s) => s.snapshotReleased)?.id as string;
        return zip(recommit({ ...base, [`steps/${released}.json`]: base[stepTree] as Uint8Array }));
      },
      /exists for a released step|names step/,
    ],
    [
      'base not an ancestor',
      () => zip(editJson(base, `steps/${stepIds.at(-1)}.json`, (t) => (t.base = stepIds[2]))),
      /base st\d+ is not/,
    ],
    [
      'mode out of range',
      () => withTree((t) => ((t.set[0] as Record<string, unknown>).mode = 0o77777)),
      /mode/,
    ],
    [
      'status not a number',
      () => manifest(base, (m) => ((m.steps[0] as Record<string, unknown>).status = 'x')),
      /status/,
    ],
    [
      'duplicate branch names',
      () =>
        manifest(base, (m) => {
          const b = m.branches as Array<Record<string, unknown>>;
          (b[1] as Record<string, unknown>).name = b[0]?.name;
        }),
      /branch name "main" appears twice/,
    ],
    // Local headers that tell another story than the central directory (streaming
    // readers would see other entries than this one).
    [
      'local header names another entry',
      () => {
        const out = Buffer.from(good);
        const at = out.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04, 20]));
        const name = out.toString('latin1', at + 30, at + 30 + out.readUInt16LE(at + 26));
        out.write('x', at + 30 + name.length - 1, 'latin1');
        return new Uint8Array(out);
      },
      /local header gives another name than the central directory/,
    ],
    [
      'local header gives another size',
      () => patchLocal(good, firstBlob, 22, 12345, 4),
      /local header gives another size \(12345\)/,
    ],
    [
      'local header gives another compressed size',
      () => patchLocal(good, firstBlob, 18, 7, 4),
      /local header gives another compressed size/,
    ],
    [
      'local header gives another CRC-32',
      () => patchLocal(good, 'manifest.json', 14, 0xdeadbeef, 4),
      /local header gives another CRC-32/,
    ],
    [
      'local header gives another compression method',
      () => patchLocal(good, 'manifest.json', 8, 0, 2),
      /local header gives another compression method/,
    ],
    [
      'both headers agree on a wrong CRC-32',
      () =>
        patchLocal(
          patchCentral(good, 'trees/origin.json', 16, 0x12345678, 4),
          'trees/origin.json',
          14,
          0x12345678,
          4,
        ),
      /"trees\/origin.json" is corrupt \(its CRC-32 differs/,
    ],
    [
      'an encrypted entry',
      () => patchLocal(patchCentral(good, firstBlob, 8, 1, 2), firstBlob, 6, 1, 2),
      /is encrypted/,
    ],
    [
      'entries whose data overlap',
      () => {
        const size = centralField(good, firstBlob, 20) + 64;
        let f = good;
        for (const [o, l] of [
          [20, 18],
          [24, 22],
        ] as const)
          f = patchLocal(patchCentral(f, firstBlob, o, size, 4), firstBlob, l, size, 4);
        return f;
      },
      /overlap|runs into the central directory/,
    ],
    [
      'restores an unknown step',
      () => manifest(base, (m) => ((m.steps[0] as Record<string, unknown>).restoredFrom = 'zz')),
      /restores unknown step zz/,
    ],
    [
      'file without a blob',
      () =>
        withTree((t) =>
          t.set.push({ ...t.set[0], path: '/tmp/noblob', kind: 'file', blob: undefined }),
        ),
      /has no blob/,
    ],
    [
      'symlink without a target',
      () =>
        withTree((t) =>
          t.set.push({
            ...t.set[0],
            path: '/tmp/l',
            kind: 'symlink',
            blob: undefined,
            target: undefined,
          }),
        ),
      /has no target/,
    ],
  ];

  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it('accepts the unmodified file', () => {
    expect(decodeTimeline(good).manifest.steps).toHaveLength(5);
  });

  it.each(cases)('refuses %s with a clear message', (_name, make, message) => {
    let caught: unknown;
    try {
      decodeTimeline(make());
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ code: 'EBADTIMELINE' });
    expect((caught as Error).message).toMatch(/^timeline file: /);
    expect((caught as Error).message).toMatch(message);
  });
});

describe('timeline journal', () => {
  it('is written step by step and recovers every complete step after a crash', async () => {
    const h = harness();
    const chunks: Uint8Array[] = [];
    const store = (
      h.timeline as unknown as {
        options: { store: Parameters<typeof journalTimeline>[0]['store'] };
      }
    ).options.store;
    const stop = journalTimeline({
      name: 'j',
      settings: DEFAULT_SETTINGS,
      timeline: h.timeline,
      store,
      append: (b) => chunks.push(b),
    });
    const a = await h.step('a', (v) => v.writeFile('/tmp/a', bytes('A')));
    await h.step('b', (v) => v.writeFile('/tmp/b', new Uint8Array(50_000).fill(9)));
    await h.timeline.restore(a.id);
    await h.step('c', (v) => v.writeFile('/tmp/c', bytes('C')));
    stop();
    const all = Buffer.concat(chunks);
    const full = recoverJournal(new Uint8Array(all));
    expect(full).toMatchObject({ steps: 4, lostBytes: 0 });
    const data = decodeTimeline(full.file);
    expect(data.manifest.steps.map((s) => s.command)).toEqual(['a', 'b', `restore ${a.id}`, 'c']);
    expect(data.manifest.branches.map((b) => b.name)).toEqual(['main', 'branch-2']);
    // A crash in the middle of the last step: the steps before it survive.
    const cut = recoverJournal(new Uint8Array(all.subarray(0, all.length - 20)));
    expect(cut.steps).toBe(3);
    expect(decodeTimeline(cut.file).manifest.steps).toHaveLength(3);
    expect(() => recoverJournal(strToU8('garbage'))).toThrow(/not a journal/);
  });
});
