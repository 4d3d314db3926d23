/** The SDK's one error type: every failure of the engine or the connection, with its code. */
import type { ApiError } from '../../src-worker/contract/api.js';

export class SandglassError extends Error {
  /** An errno name (ENOENT, EPERM, ETIMEDOUT...) or an API code (EINVAL, ENOSYS, ECONNRESET...). */
  readonly code: string;
  /** The JSON-RPC error code, when the error came over JSON-RPC. */
  readonly rpcCode: number | undefined;

  constructor(code: string, message: string, rpcCode?: number) {
    super(message);
    this.name = 'SandglassError';
    this.code = code;
    this.rpcCode = rpcCode;
  }

  static from(err: unknown): SandglassError {
    if (err instanceof SandglassError) return err;
    const e = err as Partial<ApiError> & { message?: unknown };
    const message = typeof e?.message === 'string' ? e.message : String(err);
    return new SandglassError(typeof e?.code === 'string' ? e.code : 'EIO', message);
  }
}
