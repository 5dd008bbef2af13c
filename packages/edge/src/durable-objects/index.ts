/**
 * `@toolctx/edge/durable-objects`: the Durable Object classes a Worker exports and binds in
 * `wrangler.jsonc` — the run host, the identity run counter, the MCP session and the artifact
 * admissions. They extend `DurableObject` from `cloudflare:workers`, which only workerd provides,
 * so they live apart from `@toolctx/edge`, whose door, stores and run directories load in Node too.
 *
 * @example
 * ```ts
 * import { createRuntime } from '@toolctx/core';
 * import { createToolServer, durableObjectRuns } from '@toolctx/edge';
 * import { createRunHost } from '@toolctx/edge/durable-objects';
 *
 * const runtime = createRuntime({ tools });
 * export class RunHost extends createRunHost<Env>(() => runtime) {}
 * export default createToolServer<Env>({ runtime, runs: (env) => durableObjectRuns(env.RUNS), authenticate });
 * ```
 * @module
 */
export { McpSession } from '../mcp/mcp-session.js';
export { IdentityRunsObject } from '../run-host/identity-runs.js';
export {
  createRunHost,
  type RunHostClass,
  RunHostObject,
  type RunHostOptions,
} from '../run-host/run-host.js';
export { ArtifactAdmissions } from '../stores/artifact-admissions.js';
