import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_KERNEL_LIMITS, maxPagesFor } from '../base/limits.js';
import { rewriteProgram } from '../programs/exec.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import {
  PREPARED_SHELL_FILE,
  writePreparedShell,
  type PreparedShellHeader,
} from './preparedShell.js';

const shell = join(defaultProgramsDir(), 'shell.wasm');
const tmp = mkdtempSync(join(tmpdir(), 'sandglass-prepared-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The file as bin/sandglass.mjs reads it. */
function readPrepared(dir: string): { header: PreparedShellHeader; wasm: Buffer } {
  const file = readFileSync(join(dir, PREPARED_SHELL_FILE));
  const end = 4 + file.readUInt32LE(0);
  return { header: JSON.parse(file.toString('latin1', 4, end)), wasm: file.subarray(end) };
}

describe('writePreparedShell', () => {
  it.skipIf(!existsSync(shell))(
    "holds the shell rewritten for the default memory limit, and the source's stamp",
    async () => {
      writePreparedShell(tmp);
      const { header, wasm } = readPrepared(tmp);
      const st = statSync(shell);
      const maxPages = maxPagesFor(DEFAULT_KERNEL_LIMITS.memoryBytes);
      expect(header).toMatchObject({ source: shell, size: st.size, mtimeMs: st.mtimeMs, maxPages });
      const rewritten = rewriteProgram(readFileSync(shell), maxPages);
      expect(header.memory).toEqual(rewritten.memory);
      expect(header.restartable).toBe(true);
      expect(Buffer.compare(wasm, rewritten.bytes)).toBe(0);
      await expect(WebAssembly.compile(wasm)).resolves.toBeInstanceOf(WebAssembly.Module);
      // Nothing left beside it.
      expect(existsSync(join(tmp, `${PREPARED_SHELL_FILE}.${process.pid}`))).toBe(false);
    },
  );

  it('leaves a directory it cannot write to as it is', () => {
    const missing = join(tmp, 'no', 'such', 'dir');
    expect(() => writePreparedShell(missing)).not.toThrow();
    expect(existsSync(missing)).toBe(false);
  });
});
