/**
 * The tool-result cache contract: bytes by key, each with a time to live. Implementations:
 * `createMemoryCache` here, IndexedDB and KV in the platform packages; all pass
 * `describeCachePort` from `@toolctx/core/testing`.
 *
 * @example
 * ```ts
 * import type { CachePort } from '@toolctx/core';
 * import { createMemoryCache } from '@toolctx/core/memory';
 * const cache: CachePort = createMemoryCache();
 * await cache.set('k', new TextEncoder().encode('v'), { ttlMs: 60_000 });
 * await cache.get('k'); // Uint8Array of 'v'
 * ```
 */
export interface CachePort {
  /** The bytes stored under `key`, or `null` when absent or expired. */
  get(key: string): Promise<Uint8Array | null>;
  /** Stores `value` under `key` for `ttlMs` milliseconds. */
  set(key: string, value: Uint8Array, options: { ttlMs: number }): Promise<void>;
  /** Removes `key`; absent is fine. */
  delete(key: string): Promise<void>;
}
