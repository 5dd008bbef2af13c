/**
 * `@toolctx/core/ports`: what an implementation of a port shares with the built-in ones — the
 * artifact-store kernel (`createArtifactStore` over an `ArtifactDriver`: every artifact store,
 * built-in or yours, is a driver that keeps bytes and metas while the kernel does the contract),
 * scope keys that cannot collide, artifact metas with their sha-256 digest, encoding, refs,
 * limits, streams, argument checks for caches, workspace paths and credentials that redact
 * themselves. The contracts themselves (`ArtifactStore`, `CachePort`, `Workspace`,
 * `CredentialProvider`, …) are types of `@toolctx/core`; check an implementation with
 * `@toolctx/core/testing`.
 *
 * @example
 * ```ts
 * import type { ArtifactScope } from '@toolctx/core';
 * import { assertArtifactScope, scopeKey } from '@toolctx/core/ports';
 *
 * function prefixFor(scope: ArtifactScope): string {
 *   assertArtifactScope(scope);
 *   return `artifacts/${scopeKey(scope)}/`;
 * }
 * ```
 * @module
 */
export type {
  ArtifactAdmission,
  ArtifactDriver,
  ArtifactRecord,
  ArtifactUpload,
} from '../artifacts/driver.js';
export { decodeArtifactData, encodeArtifactData } from '../artifacts/encoding.js';
export { type ArtifactTextField, artifactFieldProblem } from '../artifacts/fields.js';
export { type ArtifactStoreOptions, createArtifactStore } from '../artifacts/kernel.js';
export {
  admitArtifactSize,
  admitToScope,
  checkArtifactLimits,
  type ScopeTotals,
} from '../artifacts/limits.js';
export { createArtifactMeta, isArtifactExpired, verifyArtifactBytes } from '../artifacts/meta.js';
export { isRef, newRef } from '../artifacts/ref.js';
export { assertArtifactScope, scopeKey } from '../artifacts/scope-key.js';
export { readAllBytes, streamBytes } from '../artifacts/stream-bytes.js';
export { checkCacheEntry, checkCacheKey } from '../cache/check-cache-args.js';
export { sha256Hex } from '../canonical-json.js';
export { createCredential } from '../credentials/credential.js';
export { resolveWorkspacePath } from '../workspace/resolve-path.js';
