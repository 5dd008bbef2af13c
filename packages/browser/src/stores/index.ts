export { createIdbArtifactStore, type IdbArtifactStoreOptions } from './idb-artifact-store.js';
export type { IdbConnectionChange } from './idb-connection.js';
