/**
 * `@toolctx/browser/status`: the live-status widget alone — `attachStatus` and `<toolctx-status>`.
 *
 * @example
 * ```ts
 * import { attachStatus } from '@toolctx/browser/status';
 * attachStatus(document.body, run);
 * ```
 * @module
 */
export { type AttachStatusOptions, attachStatus, type StatusHandle } from './attach-status.js';
export { defineStatusElement, type StatusElement } from './status-element.js';
export type { StatusSource } from './status-source.js';
