import { describeCachePort } from '@toolctx/core/testing';
import { describe, expect, it } from 'vitest';
import { createIdbCache } from './idb-cache.js';

// Runs in Node (fake-indexeddb) and in real Chromium: a fresh database per case.
describeCachePort('IndexedDB', {
  create: ({ clock }) => createIdbCache({ name: `cache-${crypto.randomUUID()}`, clock }),
});

describe('createIdbCache on IndexedDB', () => {
  it('two caches on one database name share entries, as two tabs would', async () => {
    const name = `cache-${crypto.randomUUID()}`;
    const [first, second] = [createIdbCache({ name }), createIdbCache({ name })];
    await first.set('k', new Uint8Array([1, 2, 3]), { ttlMs: 60_000 });
    expect(Array.from((await second.get('k')) ?? [])).toEqual([1, 2, 3]);
    await second.delete('k');
    expect(await first.get('k')).toBeNull();
  });
});
