export { decodeArtifactData, defaultMediaType, encodeArtifactData } from './encoding.js';
export { admitArtifactSize, admitToScope, checkArtifactLimits, type ScopeTotals } from './limits.js';
export { createMemoryArtifactStore, type MemoryArtifactStoreOptions } from './memory-store.js';
export { createArtifactMeta, isArtifactExpired, verifyArtifactBytes } from './meta.js';
export { isRef, newRef } from './ref.js';
export { resolveWants, type WantProblem, type WantsResolution } from './resolve-wants.js';
export { assertArtifactScope, scopeKey } from './scope-key.js';
export { readAllBytes, streamBytes } from './stream-bytes.js';
export type {
  ArtifactData,
  ArtifactEncoding,
  ArtifactLimits,
  ArtifactMeta,
  ArtifactOrigin,
  ArtifactPage,
  ArtifactPut,
  ArtifactScope,
  ArtifactStore,
  ArtifactStoreCapabilities,
  ArtifactStreamPut,
  JsonValue,
} from './types.js';
