export { createKvCache, type KvCacheOptions } from './kv-cache.js';
export { createKvR2ArtifactStore, type KvR2ArtifactStoreOptions } from './kv-r2-artifact-store.js';
export { createR2Workspace, type R2WorkspaceOptions } from './r2-workspace.js';
export {
  type RebuildArtifactIndexOptions,
  type RebuildArtifactIndexReport,
  rebuildArtifactIndex,
} from './rebuild-artifact-index.js';
export { createSqliteArtifactStore, type SqliteArtifactStoreOptions } from './sqlite-artifact-store.js';
export {
  type SweepExpiredArtifactsOptions,
  type SweepExpiredArtifactsReport,
  sweepExpiredArtifacts,
} from './sweep-expired-artifacts.js';
