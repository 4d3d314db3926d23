/** Minimal ustar writer, for exporting a folder from the sandbox as one download. */
export interface TarEntry {
  /** Path inside the archive, relative, `/`-separated. */
  name: string;
  kind: 'file' | 'dir';
  mode: number;
  mtimeMs: number;
  data?: Uint8Array;
}

const enc = new TextEncoder();

function field(buf: Uint8Array, offset: number, length: number, text: string): void {
  buf.set(enc.encode(text).subarray(0, length), offset);
}

function octal(value: number, length: number): string {
  return value.toString(8).padStart(length - 1, '0') + '\0';
}

function header(entry: TarEntry, size: number): Uint8Array {
  const h = new Uint8Array(512);
  let name = entry.kind === 'dir' ? `${entry.name.replace(/\/$/, '')}/` : entry.name;
  let prefix = '';
  if (enc.encode(name).length > 100) {
    // ustar splits long paths at a slash into prefix (155) + name (100).
    const cut = name.lastIndexOf('/', name.length - 2);
    if (
      cut > 0 &&
      enc.encode(name.slice(0, cut)).length <= 155 &&
      enc.encode(name.slice(cut + 1)).length <= 100
    ) {
      prefix = name.slice(0, cut);
      name = name.slice(cut + 1);
    } else {
      throw new Error(`path too long for tar: ${entry.name}`);
    }
  }
  field(h, 0, 100, name);
  field(h, 100, 8, octal(entry.mode & 0o7777, 8));
  field(h, 108, 8, octal(0, 8));
  field(h, 116, 8, octal(0, 8));
  field(h, 124, 12, octal(size, 12));
  field(h, 136, 12, octal(Math.floor(entry.mtimeMs / 1000), 12));
  field(h, 148, 8, '        ');
  field(h, 156, 1, entry.kind === 'dir' ? '5' : '0');
  field(h, 257, 6, 'ustar\0');
  field(h, 263, 2, '00');
  field(h, 345, 155, prefix);
  let sum = 0;
  for (const b of h) sum += b;
  field(h, 148, 8, octal(sum, 7) + ' ');
  return h;
}

export function writeTar(entries: TarEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    const data = entry.kind === 'file' ? (entry.data ?? new Uint8Array(0)) : new Uint8Array(0);
    parts.push(header(entry, data.length));
    if (data.length > 0) {
      parts.push(data);
      const pad = (512 - (data.length % 512)) % 512;
      if (pad) parts.push(new Uint8Array(pad));
    }
  }
  parts.push(new Uint8Array(1024));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
