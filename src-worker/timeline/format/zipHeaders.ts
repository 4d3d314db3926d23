/**
 * Cross-checks a zip's local file headers against its central directory.
 * fflate (like most readers that seek) reads names, sizes and methods from
 * the central directory only and skips the local header, while streaming
 * readers read the local headers only: a file whose two disagree shows
 * different entries to different tools, so a timeline file must not. Also
 * refuses entries whose bytes overlap (one stretch of data listed twice, the
 * overlapping-entries zip bomb), encrypted entries and ZIP64 (a timeline
 * file is at most 1 GiB, and its writer never needs ZIP64). The CRC-32 of
 * each entry's contents is checked once inflated (`checkCrcs`).
 */
import { crc32 } from 'node:zlib';

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** General-purpose flag bits: encrypted; sizes and CRC in a data descriptor after the data. */
const ENCRYPTED = 1;
const DESCRIPTOR = 8;

/** What the central directory says of an entry. */
export interface CentralEntry {
  name: string;
  crc: number;
}

function u16(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (
    ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16)) +
    (b[at + 3] ?? 0) * 0x1000000
  );
}

function sameBytes(b: Uint8Array, x: number, y: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (b[x + i] !== b[y + i]) return false;
  return true;
}

/**
 * Checks every entry's local header against its central directory record;
 * returns the entries (name, CRC-32) or a message naming the first problem.
 * Called after fflate read the directory, so its structure is known sound.
 */
export function checkLocalHeaders(bytes: Uint8Array): CentralEntry[] | string {
  let end = bytes.length - 22;
  while (end >= 0 && u32(bytes, end) !== EOCD) {
    if (bytes.length - end > 65557) return 'no end of central directory record';
    end--;
  }
  if (end < 0) return 'no end of central directory record';
  if (end >= 20 && u32(bytes, end - 20) === ZIP64_LOCATOR)
    return 'is a ZIP64 archive (a timeline file never needs ZIP64)';
  const count = u16(bytes, end + 10);
  const directory = u32(bytes, end + 16);
  const out: CentralEntry[] = [];
  const spans: Array<[number, number, string]> = [];
  let at = directory;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || u32(bytes, at) !== CENTRAL) return 'the central directory is corrupt';
    const nameLen = u16(bytes, at + 28);
    const nameAt = at + 46;
    const name = new TextDecoder().decode(bytes.subarray(nameAt, nameAt + nameLen));
    const shown = JSON.stringify(name.slice(0, 100));
    const central = {
      flags: u16(bytes, at + 8),
      method: u16(bytes, at + 10),
      crc: u32(bytes, at + 16),
      size: u32(bytes, at + 20),
      originalSize: u32(bytes, at + 24),
    };
    const local = u32(bytes, at + 42);
    at = nameAt + nameLen + u16(bytes, at + 30) + u16(bytes, at + 32);
    if (central.flags & ENCRYPTED) return `entry ${shown} is encrypted`;
    if (local + 30 > directory || u32(bytes, local) !== LOCAL)
      return `entry ${shown} has no local header where the central directory points`;
    const localNameLen = u16(bytes, local + 26);
    if (localNameLen !== nameLen || !sameBytes(bytes, local + 30, nameAt, nameLen))
      return `entry ${shown}: its local header gives another name than the central directory`;
    if (u16(bytes, local + 8) !== central.method)
      return `entry ${shown}: its local header gives another compression method than the central directory`;
    // With a data descriptor the local header may leave CRC and sizes 0.
    const deferred = (u16(bytes, local + 6) & DESCRIPTOR) !== 0;
    const fields: Array<[string, number, number]> = [
      ['CRC-32', u32(bytes, local + 14), central.crc],
      ['compressed size', u32(bytes, local + 18), central.size],
      ['size', u32(bytes, local + 22), central.originalSize],
    ];
    for (const [what, got, want] of fields)
      if (got !== want && !(deferred && got === 0))
        return `entry ${shown}: its local header gives another ${what} (${got}) than the central directory (${want})`;
    const data = local + 30 + localNameLen + u16(bytes, local + 28);
    if (data + central.size > directory)
      return `entry ${shown}'s data runs into the central directory`;
    out.push({ name, crc: central.crc });
    spans.push([local, data + central.size, shown]);
  }
  return checkSpans(spans) ?? out;
}

/** Each entry's header and data must lie apart from every other's. */
function checkSpans(spans: Array<[number, number, string]>): string | null {
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    const prev = spans[i - 1] as [number, number, string];
    const cur = spans[i] as [number, number, string];
    if (cur[0] < prev[1]) return `entries ${prev[2]} and ${cur[2]} overlap`;
  }
  return null;
}

/** Each entry's inflated contents against the CRC-32 its directory record states. */
export function checkCrcs(
  entries: readonly CentralEntry[],
  files: Readonly<Record<string, Uint8Array>>,
): string | null {
  for (const e of entries) {
    const data = files[e.name];
    if (data && crc32(data) >>> 0 !== e.crc)
      return `entry ${JSON.stringify(e.name.slice(0, 100))} is corrupt (its CRC-32 differs from the zip directory's)`;
  }
  return null;
}
