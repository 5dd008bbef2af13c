/**
 * `@toolctx/browser/status`: the live-status widget alone — `attachStatus` and `<toolctx-status>`.
 *
 * @example
 * ```ts
 * import type { Run } from '@toolctx/core';
 * import { attachStatus } from '@toolctx/browser/status';
 * declare const run: Run;
 * attachStatus(document.body, run);
 * ```
 * @module
 */
export { type AttachStatusOptions, attachStatus, type StatusHandle } from './attach-status.js';
export type { CallDetails, StatusActions } from './line-actions.js';
export { defineStatusElement, type StatusElement } from './status-element.js';
export type { StatusSource } from './status-source.js';
