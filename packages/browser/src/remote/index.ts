/**
 * `@toolctx/browser/remote`: a run of the HTTP door in the page — its server-sent events, its
 * calls and their handles, cancel and approval.
 *
 * @example
 * ```ts
 * import { connectRun } from '@toolctx/browser/remote';
 * declare const runId: string; // from POST /runs
 * for await (const event of connectRun('https://tools.example.com', runId)) console.log(event.type);
 * ```
 * @module
 */
export { type ConnectRunOptions, connectRun, type RemoteRun, type RemoteRunStream } from './connect-run.js';
export { RemoteRunError, type RemoteRunErrorCode } from './remote-run-error.js';
export type { RemoteCallRequest, RemoteRunCalls } from './run-calls.js';
