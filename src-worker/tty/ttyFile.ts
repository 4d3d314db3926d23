/** An fd on a kernel tty. */
import { FT, OpenFile, type Readiness } from '../fd/openFile.js';
import type { Notifier } from '../base/notifier.js';
import type { Tty } from './tty.js';

export class TtyFile extends OpenFile {
  readonly filetype = FT.chardev;
  override readonly changed: Notifier;

  constructor(readonly tty: Tty) {
    super();
    this.changed = tty.changed;
  }

  override read(len: number): Uint8Array | null {
    return this.tty.read(len);
  }

  override write(data: Uint8Array): number {
    return this.tty.write(data);
  }

  override readiness(): Readiness {
    const n = this.tty.pending;
    return { readable: n > 0 || this.tty.closed, writable: true, hup: this.tty.closed, nbytes: n };
  }
}
