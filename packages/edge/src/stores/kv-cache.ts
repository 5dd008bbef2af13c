import { type CachePort, ToolctxError } from '@toolctx/core';
import { checkCacheEntry, checkCacheKey, sha256Hex } from '@toolctx/core/ports';

/** Options of {@link createKvCache}. */
export interface KvCacheOptions {
  /** The KV namespace to keep entries in (pass `env.X`). */
  kv: KVNamespace;
  /** Put before every key, so a cache can share a namespace; `cache/` by default. */
  prefix?: string;
  /** Epoch milliseconds; `Date.now` by default. Decides when an entry is gone. */
  clock?: () => number;
}

interface EntryMetadata {
  expiresAt: number;
}

// KV keys are at most 512 bytes; longer cache keys are stored under their sha-256. The `k:` and
// `h:` markers keep the two forms apart, so a literal key never meets a hashed one.
const MAX_LITERAL_KEY = 400;
// KV's own expiry (real time, at least 60 s) collects entries nobody reads again; the clock decides.
const COLLECT_AFTER_S = 60;

/**
 * A {@link CachePort} on Workers KV: each value is stored as bytes under its key, with its expiry
 * (by `clock`) in the KV key's metadata, checked on every `get`; an expired entry is a miss and
 * is deleted. KV's own `expirationTtl` is set a minute past the ttl only to collect entries that
 * are never read again: with an injected clock it cannot decide visibility. KV is eventually
 * consistent: a `set` may take up to 60 s to be seen at other locations, which a cache tolerates.
 *
 * @example
 * ```ts
 * import { createKvCache } from '@toolctx/edge';
 * declare const env: { CACHE: KVNamespace };
 * const cache = createKvCache({ kv: env.CACHE });
 * await cache.set('k', new TextEncoder().encode('v'), { ttlMs: 60_000 });
 * await cache.get('k'); // Uint8Array of 'v'
 * ```
 */
export function createKvCache(options: KvCacheOptions): CachePort {
  const { kv } = options;
  const prefix = options.prefix ?? 'cache/';
  const clock = options.clock ?? Date.now;

  const kvKey = async (key: unknown): Promise<string> => {
    const text = checkCacheKey(key);
    const literal = new TextEncoder().encode(text).byteLength <= MAX_LITERAL_KEY;
    return literal ? `${prefix}k:${text}` : `${prefix}h:${await sha256Hex(text)}`;
  };

  return {
    async get(key) {
      const name = await kvKey(key);
      const { value, metadata } = await kv.getWithMetadata<EntryMetadata>(name, 'arrayBuffer');
      if (value === null) return null;
      if (!metadata || clock() >= metadata.expiresAt) {
        await kv.delete(name);
        return null;
      }
      return new Uint8Array(value);
    },

    async set(key, value, { ttlMs } = { ttlMs: Number.NaN }) {
      const name = await kvKey(key);
      checkCacheEntry(value, ttlMs);
      // KV's expirationTtl needs a finite number.
      if (!Number.isFinite(ttlMs)) {
        throw new ToolctxError('invalid-argument', `A cache entry needs "ttlMs" > 0, got ${String(ttlMs)}.`);
      }
      const metadata: EntryMetadata = { expiresAt: clock() + ttlMs };
      await kv.put(name, value.slice(), {
        metadata,
        expirationTtl: Math.ceil(ttlMs / 1_000) + COLLECT_AFTER_S,
      });
    },

    async delete(key) {
      await kv.delete(await kvKey(key));
    },
  };
}
