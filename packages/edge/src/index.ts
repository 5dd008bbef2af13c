/**
 * toolctx on Cloudflare Workers.
 *
 * @example
 * ```ts
 * import type { Env } from '@toolctx/edge';
 * ```
 * @module
 */
export type { Env } from './env.js';
export { RunHost } from './run-host.js';
export * from './stores/index.js';
