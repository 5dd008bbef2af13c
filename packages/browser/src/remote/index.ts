/**
 * `@toolctx/browser/remote`: read a remote run's server-sent events in the page.
 *
 * @example
 * ```ts
 * import { connectRun } from '@toolctx/browser/remote';
 * declare const runId: string; // from POST /runs
 * for await (const event of connectRun('https://tools.example.com', runId)) console.log(event.type);
 * ```
 * @module
 */
export { type ConnectRunOptions, connectRun, type RemoteRunStream } from './connect-run.js';
export { RemoteRunError, type RemoteRunErrorCode } from './remote-run-error.js';
