import { ToolctxError } from '../errors.js';
import type { CachePort } from './cache-port.js';

/**
 * Options of {@link createMemoryCache}.
 *
 * @example
 * ```ts
 * import type { MemoryCacheOptions } from '@toolctx/core';
 * const options: MemoryCacheOptions = { clock: () => Date.now() };
 * ```
 */
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
 * import { createMemoryCache } from '@toolctx/core';
 * const cache = createMemoryCache();
 * await cache.set('k', new Uint8Array([1]), { ttlMs: 1_000 });
 * ```
 */
export function createMemoryCache(options: MemoryCacheOptions = {}): CachePort {
  const clock = options.clock ?? Date.now;
  const entries = new Map<string, { value: Uint8Array; expiresAt: number }>();
  const checkKey = (key: unknown): string => {
    if (typeof key !== 'string') {
      throw new ToolctxError(
        'invalid-argument',
        `A cache key must be a string, got ${typeof key}. Use toolCacheKey().`,
      );
    }
    return key;
  };
  return {
    async get(key) {
      const entry = entries.get(checkKey(key));
      if (!entry) return null;
      if (clock() >= entry.expiresAt) {
        entries.delete(key);
        return null;
      }
      return new Uint8Array(entry.value);
    },
    async set(key, value, { ttlMs } = { ttlMs: Number.NaN }) {
      checkKey(key);
      if (!(value instanceof Uint8Array)) {
        throw new ToolctxError(
          'invalid-argument',
          'A cache value must be a Uint8Array; encode text with TextEncoder.',
        );
      }
      if (!(typeof ttlMs === 'number' && ttlMs > 0)) {
        throw new ToolctxError('invalid-argument', `A cache entry needs "ttlMs" > 0, got ${String(ttlMs)}.`);
      }
      entries.set(key, { value: new Uint8Array(value), expiresAt: clock() + ttlMs });
    },
    async delete(key) {
      entries.delete(checkKey(key));
    },
  };
}
