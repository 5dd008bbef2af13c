/**
 * `@toolctx/edge`: toolctx on Cloudflare Workers — the HTTP+SSE door and the Durable Object run
 * host that keeps each run's live state.
 *
 * @example
 * ```ts
 * import { createRuntime } from '@toolctx/core';
 * import { createRunHost, createToolServer, durableObjectRuns } from '@toolctx/edge';
 *
 * const runtime = createRuntime({ tools });
 * export class RunHost extends createRunHost<Env>(() => runtime) {}
 * export default createToolServer<Env>({
 *   runtime,
 *   runs: (env) => durableObjectRuns(env.RUNS),
 *   authenticate: (request) => (request.headers.get('authorization') === 'Bearer dev' ? { tenant: 'dev' } : null),
 * });
 * ```
 * @module
 */
export type { DoorErrorInfo, DoorErrorKind, Reply, ReplyStatus } from './door-error.js';
export type { Env } from './env.js';
export {
  type ApprovalBody,
  type Authenticate,
  type CallBody,
  createToolServer,
  type StartRunBody,
  type ToolServerOptions,
} from './http/index.js';
export { type McpRouteOptions, McpSession, mcpFetch, mountMcp } from './mcp/index.js';
export {
  type CallFormat,
  type CancelInfo,
  createMemoryRunDirectory,
  createMemoryRunStorage,
  createRunHost,
  type DoorCall,
  type DurableObjectRunsOptions,
  defaultLimits,
  durableObjectDoor,
  durableObjectRuns,
  httpDoor,
  IdentityRunsObject,
  limitExceeded,
  type MemoryRunDirectoryOptions,
  type RunDirectory,
  type RunHostClass,
  RunHostObject,
  type RunHostOptions,
  type RunInfo,
  type RunInit,
  type RunLimits,
  type RunRecord,
  type RunStorage,
  type RunStorageListOptions,
} from './run-host/index.js';
export { encodeSse, encodeSseBytes, parseSse, readSse, type SseMessage, sseHeaders } from './sse/index.js';
export {
  type Admission,
  type AdmissionAnswer,
  type AdmissionRequest,
  ArtifactAdmissions,
  createKvCache,
  createKvR2ArtifactStore,
  createR2Workspace,
  type KvCacheOptions,
  type KvR2ArtifactStoreOptions,
  type R2WorkspaceOptions,
  type RebuildArtifactIndexOptions,
  type RebuildArtifactIndexReport,
  rebuildArtifactIndex,
  type SweepExpiredArtifactsOptions,
  type SweepExpiredArtifactsReport,
  sweepExpiredArtifacts,
} from './stores/index.js';
