import { env } from 'cloudflare:workers';
import { describeCachePort } from '@toolctx/core/testing';
import { describe, expect, it } from 'vitest';
import { createKvCache } from './kv-cache.js';

// Real KV writes in Miniflare take about 15 ms each; some cases make 50+.

// A prefix per cache keeps each case's keys apart in the shared namespace: a fresh cache per case.
describeCachePort('KV in workerd', {
  create: ({ clock }) =>
    createKvCache({ kv: env.ARTIFACT_META, prefix: `cache-${crypto.randomUUID()}/`, clock }),
});

describe('createKvCache specifics', () => {
  it('stores the bytes as the KV value with the expiry in KV metadata', async () => {
    const prefix = `cache-${crypto.randomUUID()}/`;
    const cache = createKvCache({ kv: env.ARTIFACT_META, prefix, clock: () => 1_000 });
    await cache.set('k', new Uint8Array([1, 2, 3]), { ttlMs: 500 });
    const { value, metadata } = await env.ARTIFACT_META.getWithMetadata(`${prefix}k:k`, 'arrayBuffer');
    expect(Array.from(new Uint8Array(value!))).toEqual([1, 2, 3]);
    expect(metadata).toEqual({ expiresAt: 1_500 });
  });

  it('keeps keys longer than a KV key under their digest, apart from each other', async () => {
    const cache = createKvCache({ kv: env.ARTIFACT_META, prefix: `cache-${crypto.randomUUID()}/` });
    const long = 'k'.repeat(2_000);
    await cache.set(long, new Uint8Array([1]), { ttlMs: 60_000 });
    await cache.set(`${long}x`, new Uint8Array([2]), { ttlMs: 60_000 });
    expect(Array.from((await cache.get(long)) ?? [])).toEqual([1]);
    expect(Array.from((await cache.get(`${long}x`)) ?? [])).toEqual([2]);
  });

  it('deletes an expired entry from KV when it is read', async () => {
    let now = 0;
    const prefix = `cache-${crypto.randomUUID()}/`;
    const cache = createKvCache({ kv: env.ARTIFACT_META, prefix, clock: () => now });
    await cache.set('k', new Uint8Array([1]), { ttlMs: 10 });
    now = 10;
    expect(await cache.get('k')).toBeNull();
    expect(await env.ARTIFACT_META.get(`${prefix}k:k`)).toBeNull();
  });
});
