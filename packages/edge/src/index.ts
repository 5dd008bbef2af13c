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
export { type McpRouteOptions, McpSession, mcpFetch, mountMcp } from './mcp/index.js';
export { RunHost } from './run-host.js';
