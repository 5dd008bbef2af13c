import { ToolctxError } from '@toolctx/core';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdbArtifactStore, IDB_STORES } from './idb-artifact-store.js';
import type { IdbConnectionChange } from './idb-connection.js';

// IndexedDB behaviour beyond the contract, in Node (fake-indexeddb) and in real Chromium.
const scope = { tenant: 't', principal: 'p', conversation: 'c' };
const freshName = (): string => `platform-${crypto.randomUUID()}`;

/** Opens `name` at `version` the raw way, as another tab would; fails fast instead of waiting when blocked. */
function openAsAnotherTab(
  name: string,
  version: number,
  upgrade: (db: IDBDatabase) => void,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onupgradeneeded = () => upgrade(request.result);
    request.onblocked = () =>
      reject(new Error(`opening ${name} v${version} was blocked by the store's connection`));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Record counts per object store, read through a separate connection. */
async function countRecords(name: string): Promise<Record<string, number>> {
  const db = await openDB(name);
  const counts: Record<string, number> = {};
  for (const store of Object.values(IDB_STORES)) counts[store] = await db.count(store);
  db.close();
  return counts;
}

/** Deletes database `name`; a store's connection closes on the `versionchange` this fires. */
function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}

const databaseNames = async (): Promise<(string | undefined)[]> =>
  (await indexedDB.databases()).map((database) => database.name);

let restorePut: (() => void) | undefined;
afterEach(() => {
  restorePut?.();
  restorePut = undefined;
});

/** Replaces IDBObjectStore.prototype.put for one test: the seam a failing disk or quota would use. */
function interceptPut(replacement: (store: IDBObjectStore, original: () => IDBRequest) => IDBRequest): void {
  const original = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    return replacement(this, () => original.apply(this, args));
  };
  restorePut = () => {
    IDBObjectStore.prototype.put = original;
  };
}

describe('createIdbArtifactStore on IndexedDB', () => {
  it('an aborted put transaction leaves no partial artifact: no bytes, no metadata, no totals', async () => {
    const name = freshName();
    const store = createIdbArtifactStore({ name, limits: { maxCountPerScope: 1 } });
    const written: string[] = [];
    interceptPut((objectStore, put) => {
      written.push(objectStore.name);
      const request = put();
      // The bytes are written first; abort as the metadata goes in, like a tab closing mid-put.
      if (objectStore.name === IDB_STORES.meta) objectStore.transaction.abort();
      return request;
    });
    await expect(store.put(scope, { kind: 'k', data: 'half' })).rejects.toThrow();
    restorePut?.();
    expect(written).toEqual([IDB_STORES.bytes, IDB_STORES.meta]);
    expect((await store.list(scope)).artifacts).toEqual([]);
    expect(await countRecords(name)).toEqual({ meta: 0, bytes: 0, scopes: 0 });
    // The count cap of 1 still has room: the aborted put was not counted.
    const whole = await store.put(scope, { kind: 'k', data: 'whole' });
    expect((await store.get(scope, whole.ref))?.data).toBe('whole');
  });

  it("the browser's QuotaExceededError surfaces as a quota-exceeded ToolctxError and stores nothing", async () => {
    // Real quota exhaustion cannot be provoked here (fake-indexeddb has no quota; headless
    // Chromium's is a share of the disk), so the put request fails the way the browser fails it.
    const name = freshName();
    const store = createIdbArtifactStore({ name });
    const kept = await store.put(scope, { kind: 'k', data: 'before' });
    interceptPut((objectStore, put) => {
      if (objectStore.name === IDB_STORES.meta)
        throw new DOMException('Quota exceeded.', 'QuotaExceededError');
      return put();
    });
    const error = await store.put(scope, { kind: 'k', data: 'too much' }).catch((thrown: unknown) => thrown);
    restorePut?.();
    expect(error).toBeInstanceOf(ToolctxError);
    expect((error as ToolctxError).kind).toBe('quota-exceeded');
    expect((error as ToolctxError).info.details).toEqual({ limit: 'origin-quota' });
    expect(((error as Error).cause as DOMException).name).toBe('QuotaExceededError');
    expect((await store.list(scope)).artifacts.map((meta) => meta.ref)).toEqual([kept.ref]);
    expect(await countRecords(name)).toEqual({ meta: 1, bytes: 1, scopes: 1 });
  });

  it("another tab's version upgrade while the store is in use loses no data", async () => {
    const name = freshName();
    const changes: IdbConnectionChange[] = [];
    const store = createIdbArtifactStore({ name, onVersionChange: (change) => changes.push(change) });
    const before = await Promise.all(
      ['one', 'two', 'three'].map((data) => store.put(scope, { kind: 'k', data })),
    );
    // A put already under way when the other tab upgrades, and the upgrade itself.
    const during = store.put(scope, { kind: 'k', data: 'during' });
    const other = await openAsAnotherTab(name, 2, (db) => db.createObjectStore('added-by-newer-tab'));
    const after = await store.put(scope, { kind: 'k', data: 'after' });
    const all = [...before, await during, after];
    expect(changes).toContainEqual({ type: 'versionchange', oldVersion: 1, newVersion: 2 });
    const listed = (await store.list(scope)).artifacts.map((meta) => meta.ref);
    expect(listed.sort()).toEqual(all.map((meta) => meta.ref).sort());
    for (const meta of all) expect((await store.get(scope, meta.ref))?.meta).toEqual(meta);
    expect(other.version).toBe(2);
    expect(other.objectStoreNames.contains(IDB_STORES.meta)).toBe(true);
    other.close();
  });

  it('waits while another tab blocks its upgrade, says blocked, then stores', async () => {
    const name = freshName();
    // Another tab created the database without this store's object stores and keeps it open.
    const other = await openAsAnotherTab(name, 1, () => {});
    const changes: IdbConnectionChange[] = [];
    const store = createIdbArtifactStore({
      name,
      onVersionChange: (change) => {
        changes.push(change);
        if (change.type === 'blocked') other.close();
      },
    });
    const meta = await store.put(scope, { kind: 'k', data: 'after the wait' });
    expect(changes).toEqual([{ type: 'blocked', oldVersion: 1, newVersion: 2 }]);
    expect((await store.get(scope, meta.ref))?.data).toBe('after the wait');
  });

  it('stores in the database `toolctx-artifacts` when given no name', async () => {
    await deleteDatabase('toolctx-artifacts'); // left over from an interrupted run, if any
    expect(await databaseNames()).not.toContain('toolctx-artifacts');
    try {
      await createIdbArtifactStore().put(scope, { kind: 'k', data: 'default' });
      expect(await databaseNames()).toContain('toolctx-artifacts');
      expect(await countRecords('toolctx-artifacts')).toEqual({ meta: 1, bytes: 1, scopes: 1 });
    } finally {
      await deleteDatabase('toolctx-artifacts');
    }
    expect(await databaseNames()).not.toContain('toolctx-artifacts');
  });

  it('refuses limits that are not whole numbers', () => {
    expect(() => createIdbArtifactStore({ limits: { maxCountPerScope: -1 } })).toThrow(/whole number/);
    expect(() => createIdbArtifactStore({ limits: { maxBytesPerScope: 1.5 } })).toThrow(ToolctxError);
  });
});
