/**
 * `@toolctx/edge/durable-objects`: the Durable Object classes a Worker exports and binds in
 * `wrangler.jsonc` — the run host, the identity run counter, the MCP session and the artifact
 * admissions. They extend `DurableObject` from `cloudflare:workers`, which only workerd provides,
 * so they live apart from `@toolctx/edge`, whose door, stores and run directories load in Node too.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { type Authenticate, createToolServer, durableObjectRuns, type ExampleWorkerEnv } from '@toolctx/edge';
 * import { createRunHost } from '@toolctx/edge/durable-objects';
 * declare const tools: AnyTool[];
 * declare const authenticate: Authenticate<ExampleWorkerEnv>;
 *
 * const runtimeFor = (env: ExampleWorkerEnv) => createRuntime({ tools });
 * export class RunHost extends createRunHost<ExampleWorkerEnv>(runtimeFor) {}
 * export default createToolServer<ExampleWorkerEnv>({ runtimeFor, runs: (env) => durableObjectRuns(env.RUNS), authenticate });
 * ```
 * @module
 */
export type { McpEventStoreLimits } from '../mcp/event-store.js';
export { createMcpSession, McpSession, type McpSessionClass } from '../mcp/mcp-session.js';
export { IdentityStateObject, type SlotKind } from '../run-host/identity-state.js';
export {
  createRunHost,
  type RunHostClass,
  RunHostObject,
  type RunHostOptions,
} from '../run-host/run-host.js';
export type {
  ArtifactAdmissionAnswer,
  ArtifactAdmissionRequest,
  CountedArtifact,
} from '../stores/admission-ledger.js';
export { ArtifactAdmissions } from '../stores/artifact-admissions.js';
