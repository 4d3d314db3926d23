/**
 * The warm engine's wire: length-prefixed frames on a local stream socket.
 * Each frame is a type byte, a 32-bit big-endian length and the payload.
 * The client sends one request, then its stdin; the engine answers with
 * stdout and stderr as they come and ends with the exit status.
 */

export const Frame = {
  /** Client: `WarmRequest` as JSON. */
  Request: 1,
  /** Client: bytes of stdin. */
  Stdin: 2,
  /** Client: stdin ended. */
  StdinEnd: 3,
  /** Engine: bytes of stdout. */
  Stdout: 17,
  /** Engine: bytes of stderr. */
  Stderr: 18,
  /** Engine: `{ status }` as JSON; the last frame. */
  Exit: 19,
} as const;
export type Frame = (typeof Frame)[keyof typeof Frame];

/** What `sandglass run|exec ARGS` asks a warm engine to do. */
export interface WarmRequest {
  readonly version: 1;
  readonly command: 'run' | 'exec';
  /** The arguments after the subcommand, as typed. */
  readonly args: string[];
  /** The client's working directory: relative host paths resolve against it. */
  readonly cwd: string;
}

/** A request frame bigger than this is refused (arguments are small). */
export const MAX_REQUEST_BYTES = 4 << 20;
/** Any frame's payload limit (stdin and output arrive in pieces far smaller). */
const MAX_FRAME_BYTES = 64 << 20;

export function encodeFrame(type: Frame, payload: Uint8Array | string = new Uint8Array()): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const head = Buffer.allocUnsafe(5);
  head[0] = type;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** Splits a byte stream into frames; `push` returns the complete ones. */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): { type: number; payload: Buffer }[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: { type: number; payload: Buffer }[] = [];
    while (this.pending.length >= 5) {
      const len = this.pending.readUInt32BE(1);
      if (len > MAX_FRAME_BYTES) throw new Error(`frame of ${len} bytes is too large`);
      if (this.pending.length < 5 + len) break;
      frames.push({
        type: this.pending[0] as number,
        payload: this.pending.subarray(5, 5 + len),
      });
      this.pending = this.pending.subarray(5 + len);
    }
    return frames;
  }
}
