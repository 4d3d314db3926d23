/** The slice of Emscripten's FS and Pyodide's API the realm uses (both are untyped JS). */

export interface FsNode {
  parent: FsNode;
  name: string;
  mode: number;
  id: number;
  mount: FsMount;
  mounted: FsMount | null;
  node_ops: unknown;
  stream_ops: unknown;
  name_next?: FsNode;
}

export interface FsMount {
  root: FsNode;
  opts: { root?: string };
  mountpoint: string;
}

export interface FsStream {
  node: FsNode;
  flags: number;
  position: number;
  seekable: boolean;
  path: string;
  /** Our kernel descriptor for this stream (-1: none, e.g. a directory). */
  kfd?: number;
  /**
   * How many Emscripten descriptors use `kfd` (dup/dup2 copy the stream object
   * and share this one): the kernel descriptor is closed with the last.
   */
  kfdUsers?: {
    count: number;
    /**
     * Given to a child process: the kernel's file offset is the one truth
     * (the child moves it), so reads, writes and seeks go by it from then on.
     */
    childShares?: boolean;
  };
}

export interface FsType {
  mount(mount: FsMount): FsNode;
}

export interface EmscriptenFS {
  root: FsNode | null;
  nameTable: (FsNode | undefined)[];
  ignorePermissions: boolean;
  ErrnoError: new (errno: number) => Error;
  createNode(parent: FsNode | null, name: string, mode: number, rdev?: number): FsNode;
  hashRemoveNode(node: FsNode): void;
  lookupNode(parent: FsNode, name: string): FsNode;
  lookupPath(path: string, opts?: { follow?: boolean }): { node: FsNode; path: string };
  mount(type: FsType, opts: Record<string, unknown>, mountpoint: string): FsNode;
  chdir(path: string): void;
  cwd(): string;
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  isLink(mode: number): boolean;
  isMountpoint(node: FsNode): boolean;
}

export interface PyProxyLike {
  destroy?(): void;
}

export interface PyodideLike {
  FS: EmscriptenFS;
  runPython(code: string, opts?: { globals?: unknown; filename?: string }): unknown;
  setStdin(opts: { read(buf: Uint8Array): number; isatty?: boolean }): void;
  setStdout(opts: { write(buf: Uint8Array): number; isatty?: boolean }): void;
  setStderr(opts: { write(buf: Uint8Array): number; isatty?: boolean }): void;
  setInterruptBuffer(buf: Int32Array): void;
  registerJsModule(name: string, module: object): void;
  checkInterrupt(): void;
  globals: { get(name: string): unknown; set(name: string, v: unknown): void };
  _module: {
    HEAPU8: Uint8Array;
    ERRNO_CODES: Record<string, number>;
    _emscripten_system?: unknown;
  };
}
