import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { ArtifactLimits, ArtifactScope, ArtifactStore } from '@toolctx/core';
import { scopeKey } from '@toolctx/core/ports';
import { describeArtifactStore } from '@toolctx/core/testing';
import { describe, expect, it } from 'vitest';
import { createSqliteArtifactStore } from '../stores/sqlite-artifact-store.js';
import type { StoreSuiteEnv } from './test-worker.js';

// Every case runs in workerd against a fresh Durable Object's own SQLite storage. The store is
// made inside the object and each verb is called there (runInDurableObject), as the object's own
// code would: workerd lets no other context touch an object's storage. The calls are passed on
// as they are, so the suite still meets the raw contract.
const { SQLITE_ARTIFACTS } = env as unknown as StoreSuiteEnv;
const VERBS = ['put', 'head', 'get', 'delete', 'list', 'putStream', 'getStream', 'wasExpired'] as const;
const inside = new WeakMap<ArtifactStore, <T>(work: (storage: DurableObjectStorage) => T) => Promise<T>>();

async function fresh(clock: () => number, limits: ArtifactLimits = {}): Promise<ArtifactStore> {
  const stub = SQLITE_ARTIFACTS.get(SQLITE_ARTIFACTS.newUniqueId());
  const run = <T>(work: (storage: DurableObjectStorage) => T) =>
    runInDurableObject(stub, (_object, state) => work(state.storage));
  const store = await run((storage) => createSqliteArtifactStore({ storage, clock, limits }));
  const called: ArtifactStore = { capabilities: store.capabilities } as ArtifactStore;
  for (const verb of VERBS) {
    const method = store[verb] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (method) Object.assign(called, { [verb]: (...args: unknown[]) => run(() => method(...args)) });
  }
  inside.set(called, run);
  return called;
}

/** Flips the first byte of the artifact's first chunk, as a disk error would. */
async function corrupt(store: ArtifactStore, scope: ArtifactScope, ref: string): Promise<void> {
  await inside.get(store)!(({ sql }) => {
    const [chunk] = sql
      .exec<{ seq: number; data: ArrayBuffer }>(
        'SELECT c.seq, c.data FROM toolctx_artifact_chunks c JOIN toolctx_artifacts a ON a.seq = c.seq WHERE a.scope = ? AND a.ref = ? AND c.n = 0',
        scopeKey(scope),
        ref,
      )
      .toArray();
    if (!chunk) throw new Error(`no stored bytes for ${ref}`);
    const bytes = new Uint8Array(chunk.data);
    bytes[0] = bytes[0]! ^ 0xff;
    sql.exec('UPDATE toolctx_artifact_chunks SET data = ? WHERE seq = ? AND n = 0', bytes.buffer, chunk.seq);
  });
}

describeArtifactStore('Durable Object SQLite in workerd', {
  create: ({ clock }) => fresh(clock),
  capabilities: { streaming: true },
  corrupt,
});

const retention = { maxBytesPerScope: 200_000, maxCountPerScope: 120, maxArtifactBytes: 150_000 };
describeArtifactStore('Durable Object SQLite in workerd, with retention caps', {
  create: ({ clock }) => fresh(clock, retention),
  capabilities: { streaming: true, retention },
  corrupt,
});

describe('createSqliteArtifactStore specifics', () => {
  const scope = { tenant: 't', principal: 'p', conversation: 'c' };

  it('keeps a payload past a row value’s 2 MB in chunks of 1 MiB, and gives it back whole', async () => {
    const store = await fresh(Date.now);
    const data = Uint8Array.from({ length: 5 * 1024 * 1024 + 7 }, (_, i) => (i * 31) % 251);
    const meta = await store.put(scope, { kind: 'k', data });
    const sizes = await inside.get(store)!(({ sql }) =>
      sql
        .exec<{ size: number }>('SELECT length(data) AS size FROM toolctx_artifact_chunks ORDER BY n')
        .toArray()
        .map((row) => row.size),
    );
    expect(sizes).toEqual([1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 7]);
    expect((await store.get(scope, meta.ref))?.data).toEqual(data);
    expect(await store.delete(scope, meta.ref)).toBe(true);
    const left = await inside.get(store)!(({ sql }) =>
      sql.exec('SELECT seq FROM toolctx_artifact_chunks').toArray(),
    );
    expect(left).toEqual([]);
  });

  it('an expired artifact leaves its rows and chunks at the next put into its scope', async () => {
    let now = 1_700_000_000_000;
    const store = await fresh(() => now);
    await store.put(scope, { kind: 'k', data: 'brief', ttlMs: 1_000 });
    now += 1_000;
    await store.put(scope, { kind: 'k', data: 'next' });
    const [rows, chunks] = await inside.get(store)!(({ sql }) => [
      sql.exec('SELECT ref FROM toolctx_artifacts').toArray(),
      sql.exec('SELECT seq FROM toolctx_artifact_chunks').toArray(),
    ]);
    expect(rows).toHaveLength(1);
    expect(chunks).toHaveLength(1);
  });
});
