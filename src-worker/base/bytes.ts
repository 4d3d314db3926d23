/**
 * Byte-string helpers: the VFS names files with JS strings whose char codes
 * are 0..255 (one char per byte) so any byte sequence, valid UTF-8 or not,
 * survives as a name.
 */
/** A path as a byte string (each char code 0..255 is one byte). */
export type BytePath = string;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: false });

/** Bytes to a byte string. */
export function bytesToPath(bytes: Uint8Array): BytePath {
  // Chunked so huge inputs do not overflow the argument limit of apply.
  let out = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + step) as unknown as number[]);
  }
  return out;
}

/** A byte string to bytes (chars above 255 keep their low byte; check with `isBytePath` first where that matters). */
export function pathToBytes(path: BytePath): Uint8Array {
  const out = new Uint8Array(path.length);
  for (let i = 0; i < path.length; i++) out[i] = path.charCodeAt(i) & 0xff;
  return out;
}

/** Encode an ordinary JS string as UTF-8 into a byte string. */
export function utf8ToPath(text: string): BytePath {
  return bytesToPath(utf8Encoder.encode(text));
}

/** Decode a byte string as UTF-8 for display (invalid sequences become U+FFFD). */
export function pathToUtf8(path: BytePath): string {
  return utf8Decoder.decode(pathToBytes(path));
}

/** True if every char of `s` is a byte (code <= 255). */
export function isBytePath(s: string): boolean {
  // A regex scan is much faster than a JS loop on long strings.
  return !/[\u0100-\uffff]/.test(s);
}
