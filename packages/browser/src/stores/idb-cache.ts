import type { CachePort } from '@toolctx/core';
import { checkCacheEntry, checkCacheKey } from '@toolctx/core/ports';
import { type IdbConnectionChange, idbConnection } from './idb-connection.js';

/** Options of {@link createIdbCache}. */
export interface IdbCacheOptions {
  /** The IndexedDB database name; `toolctx-cache` by default. */
  name?: string;
  /** Epoch milliseconds; `Date.now` by default. Tests pass a fake clock to drive expiry. */
  clock?: () => number;
  /** Told when another tab's upgrade closes this cache's connection, or blocks this cache's upgrade. */
  onVersionChange?: (change: IdbConnectionChange) => void;
}

const ENTRIES = 'entries';

/** A cache record: the value and the epoch millisecond from which it is gone. */
interface Entry {
  value: Uint8Array;
  expiresAt: number;
}

/**
 * A {@link CachePort} in IndexedDB (through idb): tool results survive reloads and are shared by
 * the tabs and Workers of one origin. An entry is gone from `set time + ttlMs` on, and deleted
 * when next read. Like the artifact store, it closes its connection when another tab upgrades the
 * database and reopens on its next call.
 *
 * @example
 * ```ts
 * import { createIdbCache } from '@toolctx/browser';
 * const cache = createIdbCache();
 * await cache.set('weather:paris', new TextEncoder().encode('{"c":21}'), { ttlMs: 600_000 });
 * await cache.get('weather:paris'); // Uint8Array of '{"c":21}'
 * ```
 */
export function createIdbCache(options: IdbCacheOptions = {}): CachePort {
  const clock = options.clock ?? Date.now;
  const transaction = idbConnection(
    options.name ?? 'toolctx-cache',
    [ENTRIES],
    (db) => {
      if (!db.objectStoreNames.contains(ENTRIES)) db.createObjectStore(ENTRIES);
    },
    options.onVersionChange,
  );
  return {
    async get(key) {
      checkCacheKey(key);
      const entry: Entry | undefined = await transaction([ENTRIES], 'readonly', (tx) =>
        tx.objectStore(ENTRIES).get(key),
      );
      if (!entry) return null;
      if (clock() < entry.expiresAt) return entry.value;
      // Deleted only if still the expired entry: a set from another tab in between must survive.
      await transaction([ENTRIES], 'readwrite', async (tx) => {
        const current: Entry | undefined = await tx.objectStore(ENTRIES).get(key);
        if (current && clock() >= current.expiresAt) await tx.objectStore(ENTRIES).delete(key);
      });
      return null;
    },
    async set(key, value, { ttlMs } = { ttlMs: Number.NaN }) {
      checkCacheKey(key);
      checkCacheEntry(value, ttlMs);
      // Copied now: IndexedDB clones only when the put runs, after the connection opens.
      const entry: Entry = { value: new Uint8Array(value), expiresAt: clock() + ttlMs };
      await transaction([ENTRIES], 'readwrite', (tx) => tx.objectStore(ENTRIES).put(entry, key));
    },
    async delete(key) {
      checkCacheKey(key);
      await transaction([ENTRIES], 'readwrite', (tx) => tx.objectStore(ENTRIES).delete(key));
    },
  };
}
