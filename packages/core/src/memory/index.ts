/**
 * `@toolctx/core/memory`: every port of the runtime kept in memory — for tests, demos and a single
 * process. Each passes the same conformance suite as the IndexedDB and KV/R2 implementations.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { createMemoryArtifactStore, staticCredentials } from '@toolctx/core/memory';
 * declare const tools: AnyTool[];
 *
 * const runtime = createRuntime({
 *   tools,
 *   artifacts: createMemoryArtifactStore(),
 *   credentials: staticCredentials({ github: 'ghp_…' }),
 * });
 * ```
 * @module
 */
export { createMemoryApprovalPort, type MemoryApprovalPort } from '../approval/memory-approval-port.js';
export { createMemoryPendingApprovals } from '../approval/pending-approvals.js';
export { createMemoryArtifactStore, type MemoryArtifactStoreOptions } from '../artifacts/memory-store.js';
export { createMemoryCache, type MemoryCacheOptions } from '../cache/memory-cache.js';
export { type StaticCredential, staticCredentials } from '../credentials/static-credentials.js';
export { createMemoryLedger } from '../ledger/memory-ledger.js';
export { createMemoryCallStore } from '../runtime/call-book.js';
export { createMemoryWorkspace, type MemoryWorkspaceOptions } from '../workspace/memory-workspace.js';
