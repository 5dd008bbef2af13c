/**
 * `@toolctx/edge`: toolctx on Cloudflare Workers — the HTTP+SSE door, the KV/R2 and Durable Object
 * SQLite stores and the run directories. It loads in Node as well (the door with runs in memory serves there through any
 * Fetch-API server); the Durable Object classes, which need workerd, are in
 * `@toolctx/edge/durable-objects`.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { createToolServer, durableObjectRuns, type ExampleWorkerEnv } from '@toolctx/edge';
 * import { createRunHost } from '@toolctx/edge/durable-objects';
 * declare const tools: AnyTool[];
 *
 * const runtimeFor = (env: ExampleWorkerEnv) => createRuntime({ tools });
 * export class RunHost extends createRunHost<ExampleWorkerEnv>(runtimeFor) {}
 * export default createToolServer<ExampleWorkerEnv>({
 *   runtimeFor,
 *   runs: (env) => durableObjectRuns(env.RUNS),
 *   authenticate: (request) => (request.headers.get('authorization') === 'Bearer dev' ? { tenant: 'dev' } : null),
 * });
 * ```
 * @module
 */

export type { AuthAnswer, Authenticate } from './door/authenticate.js';
export type { CallAnswer, CallFormat } from './door/call-answer.js';
export type { DoorErrorInfo, DoorErrorKind, Reply, ReplyStatus } from './door/door-error.js';
export type { ExampleWorkerEnv } from './env.js';
export {
  createToolServer,
  type ToolServerCors,
  type ToolServerOptions,
} from './http/index.js';
export {
  type DnsRebindingOptions,
  type McpRouteOptions,
  type McpSessionLimit,
  mcpFetch,
  mountMcp,
  type RunTaskHostOptions,
  runTaskHost,
} from './mcp/index.js';
export {
  type AskTaken,
  type CancelInfo,
  createMemoryRunDirectory,
  type DoorCall,
  type DoorRun,
  type DurableObjectRunsOptions,
  defaultLimits,
  durableObjectDoor,
  durableObjectRuns,
  httpCallDoor,
  httpDoor,
  type IdentityCallLimit,
  type ListedRun,
  limitExceeded,
  type MemoryRunDirectoryOptions,
  type RunDirectory,
  type RunInfo,
  type RunInit,
  type RunLimits,
  type RunListOptions,
  type RunPage,
  type RunSummary,
} from './run-host/index.js';
export {
  createKvCache,
  createKvR2ArtifactStore,
  createR2Workspace,
  createSqliteArtifactStore,
  type KvCacheOptions,
  type KvR2ArtifactStoreOptions,
  type R2WorkspaceOptions,
  type RebuildArtifactIndexOptions,
  type RebuildArtifactIndexReport,
  rebuildArtifactIndex,
  type SqliteArtifactStoreOptions,
  type SweepExpiredArtifactsOptions,
  type SweepExpiredArtifactsReport,
  sweepExpiredArtifacts,
} from './stores/index.js';
