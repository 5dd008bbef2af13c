import { env } from 'cloudflare:workers';
import type { ArtifactScope, ArtifactStore } from '@toolctx/core';
import { scopeKey } from '@toolctx/core/ports';
import { describeArtifactStore } from '@toolctx/core/testing';
import { describe, expect, it } from 'vitest';
import { createKvR2ArtifactStore } from './kv-r2-artifact-store.js';

// A put here is a real R2 write and two KV writes in Miniflare, about 30 ms on this machine, so
// the suite's cases of 100+ puts need more than vitest's default 5 s.

// Every case runs in workerd against Miniflare's real KV and R2. A fresh store per case gets a
// prefix of its own in the shared namespace and bucket, so cases never see each other's keys.
let stores = 0;
const prefixOf = new WeakMap<ArtifactStore, string>();

function fresh(clock: () => number, limits = {}): ArtifactStore {
  const prefix = `suite-${++stores}-${crypto.randomUUID()}/`;
  const store = createKvR2ArtifactStore({
    kv: env.ARTIFACT_META,
    bucket: env.ARTIFACTS,
    prefix,
    clock,
    limits,
  });
  prefixOf.set(store, prefix);
  return store;
}

/** Flips the first stored byte in R2, keeping the object's metadata, so only the bytes are wrong. */
async function corrupt(store: ArtifactStore, scope: ArtifactScope, ref: string): Promise<void> {
  const key = `${prefixOf.get(store)}${scopeKey(scope)}/${ref}`;
  const object = await env.ARTIFACTS.get(key);
  if (!object) throw new Error(`no R2 object ${key}`);
  const bytes = new Uint8Array(await object.arrayBuffer());
  bytes[0] = bytes[0]! ^ 0xff;
  await env.ARTIFACTS.put(key, bytes, { customMetadata: object.customMetadata ?? {} });
}

describeArtifactStore('KV + R2 in workerd', {
  create: ({ clock }) => fresh(clock),
  capabilities: { streaming: true },
  corrupt,
});

const retention = { maxBytesPerScope: 200_000, maxCountPerScope: 120, maxArtifactBytes: 150_000 };
describeArtifactStore('KV + R2 in workerd, with retention caps', {
  create: ({ clock }) => fresh(clock, retention),
  capabilities: { streaming: true, retention },
  corrupt,
});

describe('createKvR2ArtifactStore specifics', () => {
  const scope = { tenant: 't', principal: 'p', conversation: 'c' };

  it('keeps bytes in R2 under the scope key, meta in KV and a meta copy in R2 customMetadata', async () => {
    const store = fresh(Date.now);
    const meta = await store.put(scope, { kind: 'note', data: 'hello', label: 'greeting' });
    const object = await env.ARTIFACTS.get(`${prefixOf.get(store)}t/p/c/${meta.ref}`);
    expect(await object?.text()).toBe('hello');
    expect(object?.httpMetadata?.contentType).toBe(meta.mediaType);
    expect(JSON.parse(object?.customMetadata?.['toolctx-artifact'] ?? 'null')).toEqual(meta);
    const indexed = await env.ARTIFACT_META.get(`${prefixOf.get(store)}ref/t/p/c/${meta.ref}`, 'json');
    expect(indexed).toEqual(meta);
  });

  it('lists in creation order, across clock ticks', async () => {
    let now = 1_700_000_000_000;
    const store = fresh(() => now);
    const refs: string[] = [];
    for (let i = 0; i < 5; i++) {
      refs.push((await store.put(scope, { kind: 'k', data: String(i) })).ref);
      now += 1;
    }
    expect((await store.list(scope, { limit: 2 })).artifacts.map((m) => m.ref)).toEqual(refs.slice(0, 2));
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list(scope, cursor ? { cursor, limit: 2 } : { limit: 2 });
      all.push(...page.artifacts.map((m) => m.ref));
      cursor = page.cursor;
    } while (cursor);
    expect(all).toEqual(refs);
  });

  it('a scope too long for a KV key is stored under its digest and stays isolated', async () => {
    const store = fresh(Date.now);
    const long = { tenant: 'x'.repeat(600), principal: 'p', conversation: 'c' };
    const other = { ...long, tenant: `${'x'.repeat(599)}y` };
    const meta = await store.put(long, { kind: 'k', data: 'long scope' });
    expect((await store.get(long, meta.ref))?.data).toBe('long scope');
    expect(await store.head(other, meta.ref)).toBeNull();
    expect((await store.list(long)).artifacts.map((m) => m.ref)).toEqual([meta.ref]);
  });

  it('a label past its limit is refused naming the limit, and nothing reaches R2 or KV', async () => {
    const store = fresh(Date.now);
    await expect(store.put(scope, { kind: 'k', data: 'x', label: 'l'.repeat(8_000) })).rejects.toThrow(
      /"label" is 8000 characters long; the limit is 256/,
    );
    expect((await env.ARTIFACTS.list({ prefix: prefixOf.get(store) })).objects).toEqual([]);
    expect((await store.list(scope)).artifacts).toEqual([]);
  });

  it('a meta too long for R2 metadata (origin ids of a direct put) is refused, and nothing is stored', async () => {
    const store = fresh(Date.now);
    const origin = { runId: 'r'.repeat(8_000) };
    await expect(store.put(scope, { kind: 'k', data: 'x', origin })).rejects.toThrow(
      /too long to keep in R2/,
    );
    expect((await env.ARTIFACTS.list({ prefix: prefixOf.get(store) })).objects).toEqual([]);
    expect((await store.list(scope)).artifacts).toEqual([]);
  });

  it('a meta too large for KV key metadata (1 KiB) is still listed whole, read from its ref key', async () => {
    const store = fresh(Date.now);
    // Within the field limits, three UTF-8 bytes a character: past KV's 1,024 bytes of metadata.
    const meta = await store.put(scope, { kind: '漢'.repeat(200), data: 'x', label: '字'.repeat(256) });
    const listing = await env.ARTIFACT_META.list({ prefix: `${prefixOf.get(store)}list/` });
    expect(listing.keys[0]?.metadata).toMatchObject({ ref: meta.ref, partial: true });
    expect((await store.list(scope)).artifacts).toEqual([meta]);
  });

  it('an expired artifact is deleted lazily from R2 and KV, and wasExpired says so', async () => {
    let now = 1_700_000_000_000;
    const store = fresh(() => now);
    const meta = await store.put(scope, { kind: 'k', data: 'brief', ttlMs: 1_000 });
    expect(await store.wasExpired?.(scope, meta.ref)).toBe(false);
    now += 1_000;
    expect((await store.list(scope)).artifacts).toEqual([]);
    expect((await env.ARTIFACTS.list({ prefix: prefixOf.get(store) })).objects).toEqual([]);
    expect(await store.wasExpired?.(scope, meta.ref)).toBe(true);
    expect(await store.head(scope, meta.ref)).toBeNull();
  });

  it('getStream errors at the end when a stored byte was flipped', async () => {
    const store = fresh(Date.now);
    const meta = await store.put(scope, { kind: 'k', data: new Uint8Array(1_000).fill(3) });
    await corrupt(store, scope, meta.ref);
    const streamed = await store.getStream!(scope, meta.ref);
    await expect(new Response(streamed!.body).arrayBuffer()).rejects.toThrow(/corrupt/);
  });
});
