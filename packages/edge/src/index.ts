/**
 * `@toolctx/edge`: toolctx on Cloudflare Workers — the HTTP+SSE door and the Durable Object run
 * host that keeps each run's live state.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { createRunHost, createToolServer, durableObjectRuns, type Env } from '@toolctx/edge';
 * declare const tools: AnyTool[];
 *
 * const runtimeFor = (env: Env) => createRuntime({ tools });
 * export class RunHost extends createRunHost<Env>(runtimeFor) {}
 * export default createToolServer<Env>({
 *   runtimeFor,
 *   runs: (env) => durableObjectRuns(env.RUNS),
 *   authenticate: (request) => (request.headers.get('authorization') === 'Bearer dev' ? { tenant: 'dev' } : null),
 * });
 * ```
 * @module
 */
export type { DoorErrorInfo, DoorErrorKind, Reply, ReplyStatus } from './door-error.js';
export type { Env } from './env.js';
export * from './http/index.js';
export { type McpRouteOptions, McpSession, mcpFetch, mountMcp } from './mcp/index.js';
export * from './run-host/index.js';
export * from './stores/index.js';
