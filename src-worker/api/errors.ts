/** The engine's error (an errno-style code and a message) and its wire shape. */
import type { ApiError } from '../contract/api.js';
import { Errno, KernelError } from '../base/errno.js';

export class EngineError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** Any thrown value as an ApiError: kernel errnos by name, coded errors kept, else EIO. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof KernelError)
    return { name: 'KernelError', message: err.message, code: Errno[err.errno] ?? 'EIO' };
  if (err instanceof Error) {
    const code = (err as Error & { code?: unknown }).code;
    return { name: err.name, message: err.message, code: typeof code === 'string' ? code : 'EIO' };
  }
  return { name: 'Error', message: String(err), code: 'EIO' };
}

/** Re-throws a kernel error as an EngineError with its errno name. */
export function asEngineError(err: unknown, what?: string): EngineError {
  const e = toApiError(err);
  return new EngineError(e.code, what ? `${what}: ${e.message}` : e.message);
}
