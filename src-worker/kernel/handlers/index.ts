/** The syscall table: every generic kernel call, by number. */
import type { Handler } from './common.js';
import { fileHandlers } from './files.js';
import { metaHandlers } from './meta.js';
import { netHandlers } from './net.js';
import { pathHandlers } from './paths.js';
import { pollHandlers } from './poll.js';
import { procHandlers } from './procs.js';
import { sessionHandlers } from './session.js';
import { ttyHandlers } from './tty.js';

export const handlers: Record<number, Handler> = {
  ...fileHandlers,
  ...pathHandlers,
  ...metaHandlers,
  ...pollHandlers,
  ...procHandlers,
  ...ttyHandlers,
  ...sessionHandlers,
  ...netHandlers,
};
