export { createIdbArtifactStore, type IdbArtifactStoreOptions } from './idb-artifact-store.js';
export { createIdbCache, type IdbCacheOptions } from './idb-cache.js';
export type { IdbConnectionChange } from './idb-connection.js';
export { createOpfsWorkspace, type OpfsWorkspaceOptions } from './opfs-workspace.js';
