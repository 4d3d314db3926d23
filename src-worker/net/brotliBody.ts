/**
 * A `Content-Encoding: br` response body decoded in the gateway, for a
 * program that asks with NET_FLAGS.decodeBrotli (curl --compressed). curl
 * and wget decode gzip and deflate themselves, but no brotli decoder is in
 * the offline crate registry the wasm programs build from, and Node's zlib
 * has one. The decoded bytes go into a second ResponseBody, so the syscalls
 * read and splice them as any body; back-pressure runs through: a full
 * decoded queue pauses the decoder, whose full input stops the pulls from
 * the raw body, which then holds the server back.
 */
import { createBrotliDecompress } from 'node:zlib';
import { NetError } from './denial.js';
import type { HeaderList } from './headers.js';
import { ResponseBody } from './responseBody.js';

/** Raw bytes handed to the decoder per pull. */
const PULL_MAX = 64 * 1024;

/** True when the head's Content-Encoding is brotli alone (a stack of codings stays the program's). */
export function isBrotliEncoded(headers: HeaderList): boolean {
  const codings = headers
    .filter(([name]) => name.toLowerCase() === 'content-encoding')
    .flatMap(([, value]) => value.split(','))
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  return codings.length === 1 && codings[0] === 'br';
}

export interface DecodedBody {
  readonly body: ResponseBody;
  /** Stop decoding (the exchange closed). */
  close(): void;
}

/** Decode `raw` as it arrives; `highWater` decoded bytes wait before the decoder pauses. */
export function decodeBrotli(raw: ResponseBody, highWater: number): DecodedBody {
  const z = createBrotliDecompress();
  const toError = (err: unknown): NetError =>
    err instanceof NetError
      ? err
      : new NetError(
          'transfer-failed',
          `Error while processing content unencoding: ${err instanceof Error ? err.message : String(err)}`,
        );
  const body = new ResponseBody({ resume: () => z.resume() }, highWater, {
    received: () => {}, // the limits count the raw bytes
    ended: () => {},
    abandoned: () => z.destroy(),
    toError,
  });
  let wrote = false;
  let waiting = false; // for the decoder's 'drain'
  let stopped = false;

  z.on('data', (chunk: Buffer) => {
    if (!body.data(chunk)) z.pause();
  });
  z.on('end', () => body.end());
  z.on('error', (err) => body.failed(err));

  const pull = (): void => {
    if (stopped || waiting) return;
    for (;;) {
      let room = true;
      let n: number | null;
      try {
        n = raw.drain((bytes) => {
          wrote = true;
          room = z.write(Buffer.from(bytes));
          return bytes.length;
        }, PULL_MAX);
      } catch (err) {
        stopped = true;
        z.destroy();
        body.fail(toError(err));
        return;
      }
      if (n === 0) {
        stopped = true;
        // An empty body (HEAD, 204, 304) has no brotli stream to end.
        if (wrote) z.end();
        else {
          z.destroy();
          body.end();
        }
        return;
      }
      if (n === null) {
        raw.changed.once(pull);
        return;
      }
      if (!room) {
        waiting = true;
        z.once('drain', () => {
          waiting = false;
          pull();
        });
        return;
      }
    }
  };
  pull();

  return {
    body,
    close: () => {
      stopped = true;
      z.destroy();
    },
  };
}
