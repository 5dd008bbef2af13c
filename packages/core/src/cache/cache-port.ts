/**
 * The tool-result cache contract: bytes by key, each with a time to live. Implementations:
 * `createMemoryCache` here, IndexedDB and KV in the platform packages; all pass
 * `describeCachePort` from `@toolctx/core/testing`.
 *
 * @example
 * ```ts
 * import { type CachePort, createMemoryCache } from '@toolctx/core';
 * const cache: CachePort = createMemoryCache();
 * await cache.set('k', new TextEncoder().encode('v'), { ttlMs: 60_000 });
 * await cache.get('k'); // Uint8Array of 'v'
 * ```
 */
export interface CachePort {
  get(key: string): Promise<Uint8Array | null>;
  set(key: string, value: Uint8Array, options: { ttlMs: number }): Promise<void>;
  delete(key: string): Promise<void>;
}
