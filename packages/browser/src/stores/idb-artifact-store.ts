import type { ArtifactLimits, ArtifactMeta, ArtifactStore } from '@toolctx/core';
import { type ArtifactDriver, createArtifactStore } from '@toolctx/core/ports';
import type { IDBPTransaction } from 'idb';
import { type IdbConnectionChange, idbConnection, together } from './idb-connection.js';

/** Options of {@link createIdbArtifactStore}. */
export interface IdbArtifactStoreOptions {
  /** The IndexedDB database name; `toolctx-artifacts` by default. */
  name?: string;
  /** Epoch milliseconds; `Date.now` by default. Tests pass a fake clock to drive expiry. */
  clock?: () => number;
  limits?: ArtifactLimits;
  /** Told when another tab's upgrade closes this store's connection, or blocks this store's upgrade. */
  onVersionChange?: (change: IdbConnectionChange) => void;
}

/** Object store names; the tests reach in through them to corrupt or count records. */
export const IDB_STORES = { meta: 'meta', bytes: 'bytes', scopes: 'scopes' } as const;
const ALL = Object.values(IDB_STORES);

/** A metadata record: scope key, per-scope sequence (list order), expiry (indexed), meta. */
interface MetaRecord {
  s: string;
  q: number;
  e?: number;
  m: ArtifactMeta;
}
/** Per-scope totals, kept in the same transactions as the records they count. */
interface ScopeTotals {
  count: number;
  bytes: number;
  seq: number;
  /**
   * No record expires before this (epoch ms; Infinity when none expires), so a sweep that could
   * find nothing is skipped. Absent in totals written before it existed: those sweep.
   */
  soonest?: number;
}
type Tx = IDBPTransaction<unknown, string[], 'readwrite'>;
type ReadTx = IDBPTransaction<unknown, string[], 'readonly'>;

/**
 * An {@link ArtifactStore} in IndexedDB (through idb), for pages and Workers of one origin. Every
 * put writes metadata, bytes and the scope's totals in ONE transaction, so a failure (a cap, the
 * browser's quota, a closed tab) leaves no partial artifact; caps are checked inside it, so tabs
 * putting at once cannot both slip under one. Digests are verified on every read. Expired
 * artifacts are invisible and deleted when next seen. `putStream` and `getStream` work but hold
 * the whole payload in memory, as IndexedDB stores one value per record. When another tab opens a
 * newer version of the database, this store closes its connection and reopens on its next call.
 * A driver of the artifact-store kernel (`createArtifactStore` of `@toolctx/core/ports`), which
 * checks, digests, expires and pages; this file keeps records and admits within its transaction.
 *
 * @example
 * ```ts
 * import { createIdbArtifactStore } from '@toolctx/browser';
 * const store = createIdbArtifactStore({ limits: { maxBytesPerScope: 50_000_000 } });
 * const scope = { tenant: 't', principal: 'p', conversation: 'c' };
 * const meta = await store.put(scope, { kind: 'report', data: { rows: [1, 2] } });
 * (await store.get(scope, meta.ref))?.data; // { rows: [1, 2] }
 * ```
 */
export function createIdbArtifactStore(options: IdbArtifactStoreOptions = {}): ArtifactStore {
  const transaction = idbConnection(
    options.name ?? 'toolctx-artifacts',
    ALL,
    (db) => {
      if (!db.objectStoreNames.contains(IDB_STORES.meta)) {
        const meta = db.createObjectStore(IDB_STORES.meta);
        meta.createIndex('order', ['s', 'q'], { unique: true });
        meta.createIndex('expiry', ['s', 'e']);
      }
      for (const store of [IDB_STORES.bytes, IDB_STORES.scopes]) {
        if (!db.objectStoreNames.contains(store)) db.createObjectStore(store);
      }
    },
    options.onVersionChange,
  );
  const writing = <T>(work: (tx: Tx) => Promise<T>) => transaction(ALL, 'readwrite', work);
  const reading = <T>(work: (tx: ReadTx) => Promise<T>) =>
    transaction([IDB_STORES.meta, IDB_STORES.bytes], 'readonly', work);

  const totalsOf = async (tx: Tx, key: string): Promise<ScopeTotals> =>
    (await tx.objectStore(IDB_STORES.scopes).get(key)) ?? {
      count: 0,
      bytes: 0,
      seq: 0,
      soonest: Number.POSITIVE_INFINITY,
    };

  /**
   * Deletes `records` and gives the scope's updated totals (read here unless the caller has them);
   * the requests go out together, as IndexedDB runs them in order anyway.
   */
  const remove = async (
    tx: Tx,
    key: string,
    records: MetaRecord[],
    known?: ScopeTotals,
  ): Promise<ScopeTotals> => {
    const totals = known ?? (await totalsOf(tx, key));
    if (records.length === 0) return totals;
    const requests: (() => Promise<unknown>)[] = [];
    for (const { m } of records) {
      requests.push(() => tx.objectStore(IDB_STORES.meta).delete([key, m.ref]));
      requests.push(() => tx.objectStore(IDB_STORES.bytes).delete([key, m.ref]));
      totals.count -= 1;
      totals.bytes -= m.bytes;
    }
    requests.push(() => tx.objectStore(IDB_STORES.scopes).put(totals, key));
    await together(requests);
    return totals;
  };

  /** Deletes the scope's records expired at `now` (through the expiry index) and gives its totals. */
  const sweep = async (tx: Tx, key: string, now: number): Promise<ScopeTotals> => {
    const totals = await totalsOf(tx, key);
    if (totals.soonest !== undefined && now < totals.soonest) return totals;
    const expiry = tx.objectStore(IDB_STORES.meta).index('expiry');
    const [expired, [next]] = await Promise.all([
      expiry.getAll(IDBKeyRange.bound([key, Number.NEGATIVE_INFINITY], [key, now])),
      expiry.getAll(IDBKeyRange.bound([key, now], [key, Number.POSITIVE_INFINITY], true), 1),
    ]);
    totals.soonest = (next as MetaRecord | undefined)?.e ?? Number.POSITIVE_INFINITY;
    return remove(tx, key, expired, totals);
  };

  const driver: ArtifactDriver = {
    // Sweep, admission and the three writes in one transaction: the caps hold across tabs, and a
    // failure anywhere (a cap, the browser's quota, a closed tab) leaves nothing.
    put: (key, meta, bytes, admission) =>
      writing(async (tx) => {
        const totals = await sweep(tx, key, admission.now);
        admission.check(totals, meta.bytes);
        const seq = totals.seq + 1;
        const record: MetaRecord = { s: key, q: seq, m: meta };
        if (meta.expiresAt !== undefined) record.e = meta.expiresAt;
        await together([
          () => tx.objectStore(IDB_STORES.bytes).put(bytes, [key, meta.ref]),
          () => tx.objectStore(IDB_STORES.meta).put(record, [key, meta.ref]),
          () =>
            tx.objectStore(IDB_STORES.scopes).put(
              {
                count: totals.count + 1,
                bytes: totals.bytes + meta.bytes,
                seq,
                soonest: Math.min(totals.soonest!, meta.expiresAt ?? Number.POSITIVE_INFINITY),
              },
              key,
            ),
        ]);
      }),

    // A read-only transaction, which IndexedDB lets overlap.
    read: (key, ref, withBytes) =>
      reading(async (tx) => {
        const [record, bytes] = await Promise.all([
          tx.objectStore(IDB_STORES.meta).get([key, ref]) as Promise<MetaRecord | undefined>,
          withBytes
            ? (tx.objectStore(IDB_STORES.bytes).get([key, ref]) as Promise<Uint8Array | undefined>)
            : undefined,
        ]);
        if (!record) return null;
        return bytes ? { meta: record.m, bytes } : { meta: record.m };
      }),

    // Read and removed in one write transaction, so a concurrent delete is not counted twice.
    remove: (key, ref) =>
      writing(async (tx) => {
        const [record, totals] = await Promise.all([
          tx.objectStore(IDB_STORES.meta).get([key, ref]) as Promise<MetaRecord | undefined>,
          totalsOf(tx, key),
        ]);
        if (!record) return null;
        await remove(tx, key, [record], totals);
        return record.m;
      }),

    async list(key, { after = '0', limit }) {
      const from = Number(after);
      if (!Number.isSafeInteger(from)) return null;
      const records: MetaRecord[] = await reading((tx) =>
        tx
          .objectStore(IDB_STORES.meta)
          .index('order')
          .getAll(IDBKeyRange.bound([key, from], [key, Number.POSITIVE_INFINITY], true), limit + 1),
      );
      const metas = records.slice(0, limit).map((record) => record.m);
      return records.length > limit ? { metas, next: String(records[limit - 1]!.q) } : { metas };
    },
  };

  return createArtifactStore(driver, options);
}
