// Source-mode bootstrap of a process worker: register tsx in this thread,
// then load the TypeScript entry named in workerData.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
