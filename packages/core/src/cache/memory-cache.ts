import type { CachePort } from './cache-port.js';
import { checkCacheEntry, checkCacheKey } from './check-cache-args.js';

/** Options of {@link createMemoryCache}. */
export interface MemoryCacheOptions {
  /** Epoch milliseconds; `Date.now` by default. */
  clock?: () => number;
}

/**
 * A {@link CachePort} in memory. Values are copied in and out; an entry is gone from
 * `set time + ttlMs` on (removed when next read).
 *
 * @example
 * ```ts
 * import { createMemoryCache } from '@toolctx/core/memory';
 * const cache = createMemoryCache();
 * await cache.set('k', new Uint8Array([1]), { ttlMs: 1_000 });
 * ```
 */
export function createMemoryCache(options: MemoryCacheOptions = {}): CachePort {
  const clock = options.clock ?? Date.now;
  const entries = new Map<string, { value: Uint8Array; expiresAt: number }>();
  return {
    async get(key) {
      const entry = entries.get(checkCacheKey(key));
      if (!entry) return null;
      if (clock() >= entry.expiresAt) {
        entries.delete(key);
        return null;
      }
      return new Uint8Array(entry.value);
    },
    async set(key, value, { ttlMs } = { ttlMs: Number.NaN }) {
      checkCacheKey(key);
      checkCacheEntry(value, ttlMs);
      entries.set(key, { value: new Uint8Array(value), expiresAt: clock() + ttlMs });
    },
    async delete(key) {
      entries.delete(checkCacheKey(key));
    },
  };
}
