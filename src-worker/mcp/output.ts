/**
 * Command output as an agent receives it: each stream cut to a head and a
 * tail when it is larger than the cap (an agent's context is the scarce
 * resource, and the ends of a log are where the answer usually is), with the
 * byte count, so the agent knows what it did not see.
 */
import { OutputPreview } from '../api/outputPreview.js';

/** Default cap per stream, in bytes (about 4,000 tokens of text). */
export const DEFAULT_OUTPUT_BYTES = 16 * 1024;
/** Smallest and largest cap a call or a server may ask for. */
export const MIN_OUTPUT_BYTES = 256;
export const MAX_OUTPUT_BYTES = 1024 * 1024;

export interface CappedOutput {
  /** The whole text, or its head, a marker and its tail. */
  readonly text: string;
  /** UTF-8 bytes of the whole output. */
  readonly bytes: number;
  readonly truncated: boolean;
}

const enc = new TextEncoder();

/** Cuts `text` to at most `cap` bytes (half head, half tail) plus a marker line. */
export function capOutput(text: string, cap: number): CappedOutput {
  const bytes = enc.encode(text);
  if (bytes.length <= cap) return { text, bytes: bytes.length, truncated: false };
  const preview = new OutputPreview(Math.floor(cap / 2));
  preview.push(bytes);
  return { text: preview.text(), bytes: bytes.length, truncated: true };
}
