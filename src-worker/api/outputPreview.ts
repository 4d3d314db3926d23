/**
 * A bounded preview of a command's output: the first and last `keep` bytes
 * and the total count, whatever the output's size. Steps store this, never
 * the whole output, so step lists stay small.
 */
import { LIMITS } from '../contract/constants.js';

export class OutputPreview {
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private tail: Uint8Array[] = [];
  private tailBytes = 0;
  /** Every byte seen. */
  total = 0;

  constructor(private readonly keep: number = LIMITS.outputPreviewBytes) {}

  push(data: Uint8Array): void {
    this.total += data.length;
    let rest = data;
    if (this.headBytes < this.keep) {
      const take = Math.min(this.keep - this.headBytes, rest.length);
      this.head.push(rest.slice(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest.length > this.keep ? rest.slice(rest.length - this.keep) : rest.slice());
    this.tailBytes += Math.min(rest.length, this.keep);
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= this.keep) {
      this.tailBytes -= this.tail[0]?.length ?? 0;
      this.tail.shift();
    }
  }

  /** Head, a marker naming what was left out, and tail (decoded as UTF-8). */
  text(): string {
    const dec = new TextDecoder();
    const head = dec.decode(concat(this.head));
    if (this.tailBytes === 0) return head;
    let tail = concat(this.tail);
    if (tail.length > this.keep) tail = tail.subarray(tail.length - this.keep);
    const omitted = this.total - this.headBytes - tail.length;
    const marker = omitted > 0 ? `\n[… ${omitted} bytes not kept …]\n` : '';
    return head + marker + dec.decode(tail);
  }

  /** The preview of text that is already whole (an API run's result). */
  static of(text: string, keep?: number): OutputPreview {
    const p = new OutputPreview(keep);
    p.push(new TextEncoder().encode(text));
    return p;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
