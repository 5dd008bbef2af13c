import { env } from 'cloudflare:workers';
import type { ArtifactMeta, ArtifactStore } from '@toolctx/core';
import { scopeKey } from '@toolctx/core/ports';
import { describe, expect, it } from 'vitest';
import { createKvR2ArtifactStore } from './kv-r2-artifact-store.js';
import { PART_BYTES } from './r2-stream-io.js';
import { rebuildArtifactIndex } from './rebuild-artifact-index.js';

const scope = { tenant: 'acme', principal: 'ada', conversation: 'c/1' };

/**
 * The real KV binding with a fault injected around it: its `put` throws on the chosen calls
 * (1-based), everything else goes to Miniflare's KV. Not a mock: reads and the other writes are
 * real, so what the store leaves behind can be checked.
 */
function kvFailingPut(failOn: (call: number) => boolean): KVNamespace {
  let calls = 0;
  const real = env.ARTIFACT_META;
  return new Proxy(real, {
    get(target, name) {
      if (name === 'put') {
        return (...args: Parameters<KVNamespace['put']>) => {
          calls += 1;
          if (failOn(calls)) return Promise.reject(new Error('injected KV put failure'));
          return target.put(...args);
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function leftovers(prefix: string) {
  const objects = (await env.ARTIFACTS.list({ prefix })).objects.map((object) => object.key);
  const keys = (await env.ARTIFACT_META.list({ prefix })).keys.map((key) => key.name);
  return [...objects, ...keys];
}

/** Every ref of the scope, in list order. */
async function listed(store: ArtifactStore): Promise<ArtifactMeta[]> {
  const all: ArtifactMeta[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list(scope, cursor ? { cursor, limit: 2 } : { limit: 2 });
    all.push(...page.artifacts);
    cursor = page.cursor;
  } while (cursor);
  return all;
}

describe('a failed KV write leaves nothing visible', () => {
  for (const [what, failOn] of [
    ['the first KV put fails', (call: number) => call === 1],
    ['the second KV put fails', (call: number) => call === 2],
  ] as const) {
    it(`put: ${what} → an internal error, the R2 object removed, no KV key left`, async () => {
      const prefix = `fault-${crypto.randomUUID()}/`;
      const store = createKvR2ArtifactStore({ kv: kvFailingPut(failOn), bucket: env.ARTIFACTS, prefix });
      await expect(store.put(scope, { kind: 'k', data: 'lost' })).rejects.toThrow(/nothing was stored/);
      expect(await leftovers(prefix)).toEqual([]);
      expect((await store.list(scope)).artifacts).toEqual([]);
    });

    it(`putStream: ${what} → the streamed object is removed too`, async () => {
      const prefix = `fault-${crypto.randomUUID()}/`;
      const store = createKvR2ArtifactStore({ kv: kvFailingPut(failOn), bucket: env.ARTIFACTS, prefix });
      const data = new Blob([new Uint8Array(1_000).fill(1)]).stream();
      await expect(store.putStream!(scope, { kind: 'k', data })).rejects.toThrow(/nothing was stored/);
      expect(await leftovers(prefix)).toEqual([]);
    });
  }

  it('the store works again once KV does: a later put is stored whole', async () => {
    const prefix = `fault-${crypto.randomUUID()}/`;
    const store = createKvR2ArtifactStore({
      kv: kvFailingPut((call) => call === 1),
      bucket: env.ARTIFACTS,
      prefix,
    });
    await expect(store.put(scope, { kind: 'k', data: 'lost' })).rejects.toThrow();
    const meta = await store.put(scope, { kind: 'k', data: 'kept' });
    expect((await store.get(scope, meta.ref))?.data).toBe('kept');
    expect((await env.ARTIFACTS.list({ prefix })).objects.map((object) => object.key)).toEqual([
      `${prefix}${scopeKey(scope)}/${meta.ref}`,
    ]);
  });
});

describe('rebuildArtifactIndex', () => {
  it('restores head, get and list order from R2 alone after KV is wiped, streamed artifacts included', async () => {
    let now = 1_700_000_000_000;
    const clock = () => now;
    const prefix = `rebuild-${crypto.randomUUID()}/`;
    const options = { kv: env.ARTIFACT_META, bucket: env.ARTIFACTS, prefix, clock };
    const store = createKvR2ArtifactStore(options);
    const text = await store.put(scope, { kind: 'note', data: 'hello', label: 'l', origin: { runId: 'r1' } });
    now += 1;
    const json = await store.put(scope, { kind: 'report', data: { rows: [1, 2] } });
    now += 1;
    // Larger than one part: a multipart upload, whose R2 metadata has no digest.
    const big = new Uint8Array(PART_BYTES + 10).map((_, i) => i % 251);
    const streamed = await store.putStream!(scope, { kind: 'blob', data: new Blob([big]).stream() });
    now += 1;
    const brief = await store.put(scope, { kind: 'k', data: 'brief', ttlMs: 10 });
    const before = await listed(store);
    expect(before.map((meta) => meta.ref)).toEqual([text.ref, json.ref, streamed.ref, brief.ref]);

    const index = await env.ARTIFACT_META.list({ prefix });
    await Promise.all(index.keys.map((key) => env.ARTIFACT_META.delete(key.name)));
    expect(await store.head(scope, text.ref)).toBeNull();
    expect(await listed(store)).toEqual([]);

    await env.ARTIFACTS.put(`${prefix}not-an-artifact.txt`, 'left alone');
    now += 10;
    const report = await rebuildArtifactIndex(options);
    expect(report).toEqual({ restored: 3, expired: 1, skipped: 1 });
    expect(await listed(store)).toEqual([text, json, streamed]);
    expect(await store.head(scope, text.ref)).toEqual(text);
    expect((await store.get(scope, json.ref))?.data).toEqual({ rows: [1, 2] });
    const got = await store.get(scope, streamed.ref);
    expect(got?.meta.digest).toBe(streamed.digest);
    const bytes = got!.data as Uint8Array;
    expect(bytes.byteLength).toBe(big.byteLength);
    expect(bytes.every((byte, i) => byte === big[i])).toBe(true);
    expect(await env.ARTIFACTS.head(`${prefix}${scopeKey(scope)}/${brief.ref}`)).toBeNull();
    expect(await rebuildArtifactIndex(options)).toEqual({ restored: 3, expired: 0, skipped: 1 });
  });
});
