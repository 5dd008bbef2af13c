import type { ArtifactScope, ArtifactStore } from '@toolctx/core';
import { scopeKey } from '@toolctx/core/ports';
import { describeArtifactStore } from '@toolctx/core/testing';
import { openDB } from 'idb';
import { createIdbArtifactStore, IDB_STORES } from './idb-artifact-store.js';

// Runs in Node (fake-indexeddb) and in real Chromium: a fresh database per case.
const namesOf = new WeakMap<ArtifactStore, string>();

function createNamed(clock: () => number, limits = {}): ArtifactStore {
  const name = `artifacts-${crypto.randomUUID()}`;
  const store = createIdbArtifactStore({ name, clock, limits });
  namesOf.set(store, name);
  return store;
}

/** Flips the first stored byte of `ref` through a second connection, as a disk error would. */
async function corrupt(store: ArtifactStore, scope: ArtifactScope, ref: string): Promise<void> {
  const db = await openDB(namesOf.get(store)!);
  const key = [scopeKey(scope), ref];
  const bytes: Uint8Array | undefined = await db.get(IDB_STORES.bytes, key);
  if (!bytes || bytes.byteLength === 0) throw new Error(`no stored bytes for ${ref}`);
  bytes[0] = bytes[0]! ^ 0xff;
  await db.put(IDB_STORES.bytes, bytes, key);
  db.close();
}

describeArtifactStore('IndexedDB', {
  create: ({ clock }) => createNamed(clock),
  capabilities: { streaming: true },
  corrupt,
});

const retention = { maxBytesPerScope: 200_000, maxCountPerScope: 120, maxArtifactBytes: 150_000 };
describeArtifactStore('IndexedDB with retention caps', {
  create: ({ clock }) => createNamed(clock, retention),
  capabilities: { streaming: true, retention },
  corrupt,
});
