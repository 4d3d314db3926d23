/**
 * Uploads: many files written into a sandbox in batches (`importFiles`), as a
 * workbench does with a dropped folder. Each batch reports progress (files
 * and bytes done of the totals the client announced) to the sandbox's
 * subscribers; the upload is recorded as one `import` step when its last
 * batch is written or when it is cancelled (what was written stays).
 */
import type { ApiEvent } from '../contract/api.js';
import { EngineError } from './errors.js';
import { joinPath, normalizePath } from './paths.js';

/** What an upload needs of the engine. */
export interface UploadHost {
  /** Throws if the sandbox cannot be written (unknown, replaying). */
  check(sandboxId: string): void;
  writeFile(sandboxId: string, path: string, data: Uint8Array, mode?: number): Promise<void>;
  mkdirp(sandboxId: string, path: string): Promise<void>;
  /** Records the upload as one step. */
  record(sandboxId: string, command: string, startedAt: number): Promise<void>;
  publish(sandboxId: string, event: ApiEvent): void;
}

export interface UploadBatch {
  readonly sandboxId: string;
  readonly importId: string;
  readonly dir: string;
  readonly files: ReadonlyArray<{ path: string; base64: string; mode?: number | undefined }>;
  readonly totalFiles: number;
  readonly totalBytes: number;
  readonly last: boolean;
}

interface Upload {
  readonly sandboxId: string;
  readonly dir: string;
  readonly startedAt: number;
  files: number;
  bytes: number;
  totalFiles: number;
  totalBytes: number;
  cancelled: boolean;
  /** Directories made so far (each made once). */
  readonly made: Set<string>;
  /** Batches are written one after the other. */
  queue: Promise<unknown>;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A relative path inside the upload's directory, or EINVAL. */
function inside(dir: string, rel: string): string {
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..') || rel.includes('\0'))
    throw new EngineError('EINVAL', `importFiles: bad relative path ${JSON.stringify(rel)}`);
  return normalizePath(joinPath(dir, parts.join('/')));
}

export class Uploads {
  private readonly uploads = new Map<string, Upload>();
  /** Uploads that ended, and how: a late batch is refused rather than starting a new one. */
  private readonly ended = new Map<string, 'done' | 'cancelled'>();

  constructor(private readonly host: UploadHost) {}

  /** Writes one batch; returns the upload's running totals. */
  write(batch: UploadBatch): Promise<{ files: number; bytes: number }> {
    this.host.check(batch.sandboxId);
    const key = `${batch.sandboxId}\0${batch.importId}`;
    const ended = this.ended.get(key);
    if (ended === 'cancelled')
      return Promise.reject(new EngineError('ECANCELED', 'importFiles: the import was cancelled'));
    if (ended === 'done')
      return Promise.reject(new EngineError('EINVAL', 'importFiles: that import has ended'));
    let up = this.uploads.get(key);
    if (!up) {
      up = {
        sandboxId: batch.sandboxId,
        dir: normalizePath(batch.dir),
        startedAt: Date.now(),
        files: 0,
        bytes: 0,
        totalFiles: batch.totalFiles,
        totalBytes: batch.totalBytes,
        cancelled: false,
        made: new Set(),
        queue: Promise.resolve(),
      };
      this.uploads.set(key, up);
    }
    const upload = up;
    const run = upload.queue.then(() => this.writeNow(key, upload, batch));
    upload.queue = run.catch(() => undefined);
    return run;
  }

  private async writeNow(
    key: string,
    up: Upload,
    batch: UploadBatch,
  ): Promise<{ files: number; bytes: number }> {
    if (up.cancelled) throw new EngineError('ECANCELED', 'importFiles: the import was cancelled');
    up.totalFiles = Math.max(batch.totalFiles, up.files + batch.files.length);
    up.totalBytes = batch.totalBytes;
    try {
      for (const f of batch.files) {
        if (up.cancelled) break;
        if (!BASE64.test(f.base64))
          throw new EngineError('EINVAL', `importFiles: ${f.path}: not valid base64`);
        const target = inside(up.dir, f.path);
        const parent = target.slice(0, target.lastIndexOf('/')) || '/';
        if (!up.made.has(parent)) {
          await this.host.mkdirp(up.sandboxId, parent);
          up.made.add(parent);
        }
        const data = new Uint8Array(Buffer.from(f.base64, 'base64'));
        await this.host.writeFile(up.sandboxId, target, data, f.mode);
        up.files++;
        up.bytes += data.length;
      }
    } catch (err) {
      // A failed batch ends the upload: what was written is recorded.
      await this.finish(key, up, 'cancelled');
      throw err;
    }
    if (up.cancelled) {
      await this.finish(key, up, 'cancelled');
      throw new EngineError('ECANCELED', 'importFiles: the import was cancelled');
    }
    if (batch.last) await this.finish(key, up, 'done');
    else this.progress(up, key, 'running');
    return { files: up.files, bytes: up.bytes };
  }

  /** Marks an upload cancelled: its next batch (or the one running) stops and records what was written. */
  cancel(sandboxId: string, importId: string): void {
    const key = `${sandboxId}\0${importId}`;
    const up = this.uploads.get(key);
    if (!up) return;
    up.cancelled = true;
    // No batch in flight: record now.
    up.queue = up.queue.then(() =>
      this.uploads.get(key) === up ? this.finish(key, up, 'cancelled') : undefined,
    );
  }

  /** Forgets a destroyed sandbox's uploads. */
  dropSandbox(sandboxId: string): void {
    for (const [key, up] of this.uploads) if (up.sandboxId === sandboxId) this.uploads.delete(key);
    for (const key of this.ended.keys())
      if (key.startsWith(`${sandboxId}\0`)) this.ended.delete(key);
  }

  private async finish(key: string, up: Upload, state: 'done' | 'cancelled'): Promise<void> {
    if (this.uploads.get(key) !== up) return;
    this.uploads.delete(key);
    this.ended.set(key, state);
    this.progress(up, key, state);
    if (up.files === 0) return;
    const what = `import ${up.files} file${up.files === 1 ? '' : 's'} into ${up.dir}`;
    await this.host.record(
      up.sandboxId,
      state === 'done' ? what : `${what} (cancelled)`,
      up.startedAt,
    );
  }

  private progress(up: Upload, key: string, state: 'running' | 'done' | 'cancelled'): void {
    this.host.publish(up.sandboxId, {
      type: 'importProgress',
      sandboxId: up.sandboxId,
      importId: key.slice(key.indexOf('\0') + 1),
      dir: up.dir,
      files: up.files,
      bytes: up.bytes,
      totalFiles: up.totalFiles,
      totalBytes: up.totalBytes,
      state,
    });
  }
}
