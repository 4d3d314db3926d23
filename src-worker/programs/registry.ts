/**
 * The program registry: `manifest.json` in the programs directory lists the
 * shipped wasm programs and their roles. Installing writes small executable
 * stubs (`#!sandglass PROGRAM [APPLET]`) into /bin and /usr/bin; exec reads
 * a file and decides what to run: a wasm module, a registry program, or a
 * `#!` interpreter script (see `exec.ts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PYTHON_LINKS, PYTHON_PROGRAM, pythonAvailable } from './python.js';
import { isRole, type Role } from '../wasi/sandglass/roles.js';

export const STUB_MAGIC = '#!sandglass ';

export interface ProgramInfo {
  readonly name: string;
  readonly file: string;
  readonly role: Role;
  readonly applets: readonly string[];
  readonly links: readonly string[];
  /** Other names of applets (`gawk` -> `awk`), installed beside them. */
  readonly aliases: ReadonlyMap<string, string>;
}

/** The manifest's `aliases` object: name -> applet, strings only. */
function aliasMap(v: unknown): Map<string, string> {
  const m = new Map<string, string>();
  if (v && typeof v === 'object' && !Array.isArray(v))
    for (const [k, a] of Object.entries(v)) if (typeof a === 'string') m.set(k, a);
  return m;
}

export class ProgramRegistry {
  private readonly programs = new Map<string, ProgramInfo>();

  constructor(readonly dir: string | undefined) {
    if (dir === undefined) return;
    let text: string;
    try {
      text = readFileSync(join(dir, 'manifest.json'), 'utf8');
    } catch {
      return; // no programs built yet: user wasm files still run
    }
    const parsed = JSON.parse(text) as { programs?: unknown };
    if (!Array.isArray(parsed.programs))
      throw new Error(`${dir}/manifest.json: "programs" must be an array`);
    for (const raw of parsed.programs as Record<string, unknown>[]) {
      const name = raw['name'];
      const file = raw['file'];
      const role = raw['role'];
      if (
        typeof name !== 'string' ||
        typeof file !== 'string' ||
        typeof role !== 'string' ||
        !isRole(role)
      ) {
        throw new Error(`${dir}/manifest.json: bad program entry ${JSON.stringify(raw)}`);
      }
      const list = (v: unknown): string[] =>
        Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
      this.programs.set(name, {
        name,
        file,
        role,
        applets: list(raw['applets']),
        links: list(raw['links']),
        aliases: aliasMap(raw['aliases']),
      });
    }
  }

  get(name: string): ProgramInfo | undefined {
    return this.programs.get(name);
  }

  list(): ProgramInfo[] {
    return [...this.programs.values()];
  }

  /** The host path of the program's wasm file (undefined without a programs directory). */
  path(info: ProgramInfo): string | undefined {
    return this.dir === undefined ? undefined : join(this.dir, info.file);
  }

  /**
   * The program's wasm bytes, read from disk. Not kept: exec.ts keeps the
   * compiled module (V8 holds its own copy of the bytes), and reads again
   * only for another memory limit.
   */
  load(info: ProgramInfo): Uint8Array<ArrayBuffer> {
    if (this.dir === undefined) throw new Error('no programs directory');
    const b = readFileSync(join(this.dir, info.file));
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  /** Files to install: absolute path -> stub text. */
  stubs(): Map<string, string> {
    const out = new Map<string, string>();
    for (const p of this.programs.values()) {
      if (p.applets.length) {
        const names: [string, string][] = p.applets.map((a) => [a, a]);
        for (const [name, applet] of [...names, ...p.aliases]) {
          out.set(`/usr/bin/${name}`, `${STUB_MAGIC}${p.name} ${applet}\n`);
          out.set(`/bin/${name}`, `${STUB_MAGIC}${p.name} ${applet}\n`);
        }
      } else if (!p.links.length) {
        out.set(`/usr/bin/${p.name}`, `${STUB_MAGIC}${p.name}\n`);
      }
      for (const l of p.links) out.set(l, `${STUB_MAGIC}${p.name}\n`);
    }
    // python3 is not a wasm file: it is there when its runtime is built (see python/).
    if (pythonAvailable())
      for (const l of PYTHON_LINKS) out.set(l, `${STUB_MAGIC}${PYTHON_PROGRAM}\n`);
    return out;
  }
}
