/**
 * `@toolctx/browser`: toolctx in the web page — the live-status widget (`attachStatus`,
 * `<toolctx-status>`), the Web Worker door and the remote-run client.
 *
 * @example
 * ```ts
 * import type { Run } from '@toolctx/core';
 * import { attachStatus } from '@toolctx/browser';
 * declare const run: Run;
 * const status = attachStatus(document.querySelector('#status')!, run);
 * ```
 * @module
 */

export * from './remote/index.js';
export * from './status/index.js';
export * from './stores/index.js';
export * from './worker-door/index.js';
