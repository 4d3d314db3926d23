/**
 * Entry of a process worker thread. A pooled worker runs one job at a time,
 * picked by the message's `type`, then waits for the next. Another guest
 * kind can add its job here (to share the default pool) or boot workers
 * from its own entry (`PoolOptions.entry`).
 */
import { parentPort } from 'node:worker_threads';
import type { FatalMessage, ReadyMessage, WasmStartMessage, WorkerJob } from './messages.js';
import { runWasm } from './wasmJob.js';

const jobs: Record<string, (msg: WorkerJob) => void> = {
  start: (msg) => runWasm(msg as WasmStartMessage),
};

parentPort?.on('message', (msg: WorkerJob) => {
  const job = jobs[msg.type];
  if (job) job(msg);
  else {
    const fatal: FatalMessage = { type: 'fatal', message: `worker has no '${msg.type}' job` };
    parentPort?.postMessage(fatal);
  }
});
const ready: ReadyMessage = { type: 'ready' };
parentPort?.postMessage(ready);
