/**
 * Hand-made WebAssembly modules for the attacks a hostile program makes with
 * its own binary: imports it was not granted, memory it should not get, a
 * stack without end. Each module exports `_start`; bodies are raw opcodes.
 */

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function name(s: string): number[] {
  const bytes = [...Buffer.from(s)];
  return [...leb(bytes.length), ...bytes];
}

function section(id: number, entries: number[][]): number[] {
  const body = [...leb(entries.length), ...entries.flat()];
  return [id, ...leb(body.length), ...body];
}

export interface ModuleSpec {
  /** Function imports `[module, field]`, all of type () -> (). */
  readonly imports?: readonly (readonly [string, string])[];
  /** Exported memory: minimum and optional maximum, in 64 KiB pages (default: one page). */
  readonly memory?: { readonly min: number; readonly max?: number };
  /** Body of `_start` (without the final `end`); it may call itself as function `imports.length`. */
  readonly body: readonly number[];
}

/** The bytes of a module built from `spec`. */
export function wasmModule(spec: ModuleSpec): Uint8Array {
  const imports = spec.imports ?? [];
  const memory = spec.memory ?? { min: 1 };
  const sections = [
    section(1, [[0x60, 0x00, 0x00]]),
    ...(imports.length > 0
      ? [
          section(
            2,
            imports.map(([m, f]) => [...name(m), ...name(f), 0x00, 0x00]),
          ),
        ]
      : []),
    section(3, [[0x00]]),
    section(5, [
      memory.max === undefined
        ? [0x00, ...leb(memory.min)]
        : [0x01, ...leb(memory.min), ...leb(memory.max)],
    ]),
    section(7, [
      [...name('_start'), 0x00, ...leb(imports.length)],
      [...name('memory'), 0x02, 0x00],
    ]),
    section(10, [
      (() => {
        const code = [0x00, ...spec.body, 0x0b];
        return [...leb(code.length), ...code];
      })(),
    ]),
  ];
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...sections.flat()]);
}

/** Opcodes for the bodies. */
export const OP = {
  /** loop { br 0 }: spins forever. */
  spin: [0x03, 0x40, 0x0c, 0x00, 0x0b],
  /** Calls function `index` (itself, for unbounded recursion). */
  call: (index: number) => [0x10, ...leb(index)],
  /** loop { memory.grow(1); drop; br 0 }: asks for memory until refused, forever. */
  growForever: [0x03, 0x40, 0x41, 0x01, 0x40, 0x00, 0x1a, 0x0c, 0x00, 0x0b],
  unreachable: [0x00],
} as const;
