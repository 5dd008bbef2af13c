import { describeCachePort } from '@toolctx/core/testing';
import { describe, expect, it } from 'vitest';
import { createIdbCache } from './idb-cache.js';

// Runs in Node (fake-indexeddb) and in real Chromium: a fresh database per case.
describeCachePort('IndexedDB', {
  create: ({ clock }) => createIdbCache({ name: `cache-${crypto.randomUUID()}`, clock }),
});

/** Deletes database `name`; a cache's connection closes on the `versionchange` this fires. */
function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}

const databaseNames = async (): Promise<(string | undefined)[]> =>
  (await indexedDB.databases()).map((database) => database.name);

describe('createIdbCache on IndexedDB', () => {
  it('two caches on one database name share entries, as two tabs would', async () => {
    const name = `cache-${crypto.randomUUID()}`;
    const [first, second] = [createIdbCache({ name }), createIdbCache({ name })];
    await first.set('k', new Uint8Array([1, 2, 3]), { ttlMs: 60_000 });
    expect(Array.from((await second.get('k')) ?? [])).toEqual([1, 2, 3]);
    await second.delete('k');
    expect(await first.get('k')).toBeNull();
  });

  it('stores in the database `toolctx-cache` when given no name', async () => {
    await deleteDatabase('toolctx-cache'); // left over from an interrupted run, if any
    expect(await databaseNames()).not.toContain('toolctx-cache');
    try {
      await createIdbCache().set('k', new Uint8Array([4, 5]), { ttlMs: 60_000 });
      expect(await databaseNames()).toContain('toolctx-cache');
      const named = createIdbCache({ name: 'toolctx-cache' });
      expect(Array.from((await named.get('k')) ?? [])).toEqual([4, 5]);
    } finally {
      await deleteDatabase('toolctx-cache');
    }
    expect(await databaseNames()).not.toContain('toolctx-cache');
  });
});
