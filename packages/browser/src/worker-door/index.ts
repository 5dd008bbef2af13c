/**
 * `@toolctx/browser/worker`: the Web Worker door. Tools run in a dedicated Worker
 * (`serveInWorker`); the page calls them through `connectWorker`.
 *
 * @example
 * ```ts
 * import { connectWorker } from '@toolctx/browser/worker';
 * const run = connectWorker(new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' })).startRun();
 * ```
 * @module
 */
export { connectWorker, type WorkerConnection } from './connect-worker.js';
export { webWorkerDoor } from './door.js';
export { serveInWorker, type WorkerScopeLike, type WorkerServer } from './serve-in-worker.js';
export type { WorkerRun } from './worker-run.js';
