/**
 * Entry of a process worker thread. A pooled worker runs one job at a time,
 * picked by the message's `type`. Once a wasm job has given it a syscall
 * channel, it never returns to its event loop: between jobs it blocks on
 * the channel's job word and takes each job from there (or, when the word
 * says so, as a message read synchronously; see jobChannel.ts). Another
 * guest kind can add its job here (to share the default pool) or boot
 * workers from its own entry (`PoolOptions.entry`).
 */
import { parentPort, receiveMessageOnPort } from 'node:worker_threads';
import { JOB_CHANNEL, readJob, waitForJob } from './jobChannel.js';
import type { FatalMessage, ReadyMessage, WasmStartMessage, WorkerJob } from './messages.js';
import { jobChannel, runWasm } from './wasmJob.js';

const jobs: Record<string, (msg: WorkerJob) => void> = {
  start: (msg) => runWasm(msg as WasmStartMessage),
};

function run(msg: WorkerJob): void {
  const job = jobs[msg.type];
  if (job) job(msg);
  else {
    const fatal: FatalMessage = { type: 'fatal', message: `worker has no '${msg.type}' job` };
    parentPort?.postMessage(fatal);
  }
}

parentPort?.on('message', (first: WorkerJob) => {
  run(first);
  const view = jobChannel();
  if (!view || !parentPort) return;
  for (;;) {
    if (waitForJob(view) === JOB_CHANNEL) {
      runWasm({ type: 'start', sab: view.sab, ...readJob(view) });
    } else {
      const m = receiveMessageOnPort(parentPort);
      if (m) run(m.message as WorkerJob);
    }
  }
});
const ready: ReadyMessage = { type: 'ready' };
parentPort?.postMessage(ready);
