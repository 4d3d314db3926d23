/**
 * The timeline file format as the engine uses it: save, journal, decode and
 * load. One module so the engine can load it on first use (its zod schemas
 * and fflate's tables cost ~20 ms of CPU to build, which a `sandglass run`
 * that saves nothing never needs).
 */
export { journalTimeline } from './journal.js';
export { buildOrigin, loadSteps } from './load.js';
export { decodeTimeline } from './read.js';
export { encodeTimelineAsync } from './write.js';
