/**
 * The shell, prepared for a cold one-shot run. Every `sandglass run` starts
 * the shell, and compiling it (~10-15 ms on V8's threads) used to wait for
 * the sandbox to exist and for its 1.2 MB to be read and rewritten (memory
 * limit, imported memory, exported globals: three copies, ~4 ms). The
 * rewritten bytes are kept in `out/cli/shell.prepared` with what the engine
 * must know about them; bin/sandglass.mjs starts compiling them first thing,
 * beside the process worker's boot, and `main` in oneShot.ts offers the
 * compile to exec (`primeProgram`), which takes it if the engine runs that
 * very file under that memory limit.
 *
 * The file: a u32 (little-endian) length, a JSON header of that many bytes
 * (`PreparedShellHeader`), the wasm bytes. It stands for the source while
 * the source's size and mtime are the recorded ones (the bin checks), and
 * goes with out/cli (the build empties it): the rewrite's code is part of
 * the build.
 */
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_KERNEL_LIMITS, maxPagesFor } from '../base/limits.js';
import type { MemoryShape } from '../limits/memoryLimit.js';
import { primeProgram, rewriteProgram } from '../programs/exec.js';
import { ProgramRegistry } from '../programs/registry.js';
import { dataSegmentsRestartable } from '../programs/restart.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';

/** The file's name in the CLI's build directory. */
export const PREPARED_SHELL_FILE = 'shell.prepared';

export interface PreparedShellHeader {
  /** The shell's wasm file the bytes were made from, and its size and mtime then. */
  readonly source: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The memory limit the bytes carry (see `rewriteProgram`). */
  readonly maxPages: number;
  readonly memory?: MemoryShape;
  readonly restartable: boolean;
}

/** What bin/sandglass.mjs hands to `main`: the file's header and the compile it started. */
export interface PreparedShell {
  /** The CLI's build directory, where a missing or stale file is written after the run. */
  readonly dir: string;
  /** Undefined when the file is missing, unreadable or stale. */
  readonly header?: PreparedShellHeader;
  readonly module?: Promise<WebAssembly.Module>;
}

/** Offers the bin's compile to exec; false when there is none. */
export function adoptPreparedShell(p: PreparedShell): boolean {
  const { header, module } = p;
  if (header === undefined || module === undefined) return false;
  const { memory, restartable } = header;
  primeProgram(
    header.source,
    header.maxPages,
    module.then((m) => ({
      module: m,
      ...(memory ? { memory } : {}),
      ...(memory && restartable ? { restartable: true } : {}),
    })),
  );
  return true;
}

/**
 * Writes the prepared shell for the engine's default programs and memory
 * limit into `dir` (through a temporary file, renamed over: another run may
 * be reading it). Best effort: a read-only build or a missing shell leaves
 * things as they are.
 */
export function writePreparedShell(dir: string): void {
  const file = join(dir, PREPARED_SHELL_FILE);
  const tmp = `${file}.${process.pid}`;
  try {
    const registry = new ProgramRegistry(defaultProgramsDir());
    const info = registry.get('shell');
    const source = info && registry.path(info);
    if (info === undefined || source === undefined) return;
    const st = statSync(source);
    const maxPages = maxPagesFor(DEFAULT_KERNEL_LIMITS.memoryBytes);
    const { bytes, memory, exported } = rewriteProgram(registry.load(info), maxPages);
    const header: PreparedShellHeader = {
      source,
      size: st.size,
      mtimeMs: st.mtimeMs,
      maxPages,
      ...(memory ? { memory } : {}),
      restartable: exported && dataSegmentsRestartable(bytes),
    };
    const json = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(json.length);
    writeFileSync(tmp, Buffer.concat([length, json, bytes]));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
