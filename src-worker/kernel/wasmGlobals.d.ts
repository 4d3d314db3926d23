/**
 * Ambient types the engine needs but `lib: ES2023` + @types/node lack:
 * the WebAssembly JS API (normally from lib.dom) and Atomics.waitAsync
 * (ES2024). Only what src-worker uses is declared. Remove once the worker
 * tsconfig targets ES2024 and a DOM-free WebAssembly typing exists.
 */
/// <reference lib="es2024.sharedmemory" />

declare namespace WebAssembly {
  type ImportValue = ((...args: never[]) => unknown) | Memory | Global | Table;
  type Imports = Record<string, Record<string, ImportValue>>;
  type ExportValue = ((...args: never[]) => unknown) | Memory | Global | Table;
  type Exports = Record<string, ExportValue>;
  interface ModuleImportDescriptor {
    readonly module: string;
    readonly name: string;
    readonly kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
  }
  interface ModuleExportDescriptor {
    readonly name: string;
    readonly kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
  }
  class Module {
    constructor(bytes: BufferSource);
    static imports(module: Module): ModuleImportDescriptor[];
    static exports(module: Module): ModuleExportDescriptor[];
  }
  class Instance {
    constructor(module: Module, imports?: Imports);
    readonly exports: Exports;
  }
  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
    shared?: boolean;
  }
  class Memory {
    constructor(descriptor: MemoryDescriptor);
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class Global {
    value: unknown;
  }
  class Table {
    readonly length: number;
  }
  class CompileError extends Error {}
  class LinkError extends Error {}
  class RuntimeError extends Error {}
  type BufferSource = ArrayBufferView | ArrayBuffer;
  function compile(bytes: BufferSource): Promise<Module>;
  function validate(bytes: BufferSource): boolean;
}
