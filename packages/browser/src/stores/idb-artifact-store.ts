import {
  type ArtifactLimits,
  type ArtifactMeta,
  type ArtifactPut,
  type ArtifactScope,
  type ArtifactStore,
  ToolctxError,
} from '@toolctx/core';
import {
  admitArtifactSize,
  admitToScope,
  checkArtifactLimits,
  createArtifactMeta,
  decodeArtifactData,
  encodeArtifactData,
  isArtifactExpired,
  isRef,
  newRef,
  readAllBytes,
  scopeKey,
  streamBytes,
  verifyArtifactBytes,
} from '@toolctx/core/ports';
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

const CURSOR = /^cur_([0-9a-z]{1,11})$/;

function invalid(message: string): ToolctxError {
  return new ToolctxError('invalid-argument', message);
}

/**
 * An {@link ArtifactStore} in IndexedDB (through idb), for pages and Workers of one origin. Every
 * put writes metadata, bytes and the scope's totals in ONE transaction, so a failure (a cap, the
 * browser's quota, a closed tab) leaves no partial artifact; caps are checked inside it, so tabs
 * putting at once cannot both slip under one. Digests are verified on every read. Expired
 * artifacts are invisible and deleted when next seen. `putStream` and `getStream` work but hold
 * the whole payload in memory, as IndexedDB stores one value per record. When another tab opens a
 * newer version of the database, this store closes its connection and reopens on its next call.
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
  const clock = options.clock ?? Date.now;
  const limits = checkArtifactLimits(options.limits ?? {});
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
  const inScope = <T>(work: (tx: Tx) => Promise<T>) => transaction(ALL, 'readwrite', work);
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

  /** Deletes the scope's expired artifacts (through the expiry index) and gives its totals. */
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

  /**
   * The live record of `ref` (with its bytes when asked), or null. Reads run in a read-only
   * transaction, which IndexedDB lets overlap; an expired record is then deleted in a write
   * transaction of its own that looks again, so a concurrent put is never undone.
   */
  const live = async (key: string, ref: string, withBytes: boolean) => {
    if (!isRef(ref)) return null;
    const [record, bytes] = await reading((tx) =>
      Promise.all([
        tx.objectStore(IDB_STORES.meta).get([key, ref]) as Promise<MetaRecord | undefined>,
        withBytes
          ? (tx.objectStore(IDB_STORES.bytes).get([key, ref]) as Promise<Uint8Array | undefined>)
          : undefined,
      ]),
    );
    if (!record) return null;
    if (!isArtifactExpired(record.m, clock())) return { meta: record.m, bytes: bytes ?? new Uint8Array() };
    await inScope(async (tx) => {
      const again: MetaRecord | undefined = await tx.objectStore(IDB_STORES.meta).get([key, ref]);
      if (again && isArtifactExpired(again.m, clock())) await remove(tx, key, [again]);
    });
    return null;
  };

  const store = async (
    scope: ArtifactScope,
    input: Omit<ArtifactPut, 'data'>,
    encoded: { bytes: Uint8Array; encoding: ArtifactMeta['encoding'] },
  ): Promise<ArtifactMeta> => {
    const key = scopeKey(scope);
    const size = encoded.bytes.byteLength;
    admitArtifactSize(limits, size);
    // The digest is awaited before the transaction opens: a transaction cannot outlive a non-IDB await.
    const meta = await createArtifactMeta(input, { ...encoded, ref: newRef(), now: clock() });
    return inScope(async (tx) => {
      const totals = await sweep(tx, key, clock());
      admitToScope(limits, totals, size);
      const seq = totals.seq + 1;
      const record: MetaRecord = { s: key, q: seq, m: meta };
      if (meta.expiresAt !== undefined) record.e = meta.expiresAt;
      await together([
        () => tx.objectStore(IDB_STORES.bytes).put(encoded.bytes, [key, meta.ref]),
        () => tx.objectStore(IDB_STORES.meta).put(record, [key, meta.ref]),
        () =>
          tx.objectStore(IDB_STORES.scopes).put(
            {
              count: totals.count + 1,
              bytes: totals.bytes + size,
              seq,
              soonest: Math.min(totals.soonest!, meta.expiresAt ?? Number.POSITIVE_INFINITY),
            },
            key,
          ),
      ]);
      return meta;
    });
  };

  const readVerified = async (scope: ArtifactScope, ref: string) => {
    const read = await live(scopeKey(scope), ref, true);
    if (read) await verifyArtifactBytes(read.meta, read.bytes);
    return read;
  };

  return {
    capabilities: Object.freeze({ streaming: true, limits }),

    put: async (scope, input) => store(scope, input, encodeArtifactData(input?.data)),

    head: async (scope, ref) => (await live(scopeKey(scope), ref, false))?.meta ?? null,

    async get(scope, ref) {
      const read = await readVerified(scope, ref);
      return read ? { meta: read.meta, data: decodeArtifactData(read.meta.encoding, read.bytes) } : null;
    },

    delete: (scope, ref) => {
      const key = scopeKey(scope);
      if (!isRef(ref)) return Promise.resolve(false);
      return inScope(async (tx) => {
        const [record, totals] = await Promise.all([
          tx.objectStore(IDB_STORES.meta).get([key, ref]) as Promise<MetaRecord | undefined>,
          totalsOf(tx, key),
        ]);
        if (!record) return false;
        await remove(tx, key, [record], totals);
        return !isArtifactExpired(record.m, clock());
      });
    },

    async list(scope, { cursor, limit = 100 } = {}) {
      if (!(Number.isSafeInteger(limit) && limit >= 1)) {
        throw invalid(`list "limit" must be a whole number ≥ 1, got ${limit}.`);
      }
      const match = cursor === undefined ? null : CURSOR.exec(String(cursor));
      if (cursor !== undefined && !match) {
        throw invalid(
          `The list cursor ${JSON.stringify(cursor)} was not made by this store. Pass the cursor of the previous page as is, or none to start over.`,
        );
      }
      const after = match ? Number.parseInt(match[1]!, 36) : 0;
      const key = scopeKey(scope);
      const records: MetaRecord[] = await inScope(async (tx) => {
        await sweep(tx, key, clock());
        const range = IDBKeyRange.bound([key, after], [key, Number.POSITIVE_INFINITY], true);
        return tx
          .objectStore(IDB_STORES.meta)
          .index('order')
          .getAll(range, limit + 1);
      });
      const page = records.slice(0, limit);
      const artifacts = page.map((record) => record.m);
      return records.length > limit
        ? { artifacts, cursor: `cur_${page.at(-1)!.q.toString(36)}` }
        : { artifacts };
    },

    async putStream(scope, input) {
      const bytes = await readAllBytes(input?.data, limits.maxArtifactBytes);
      return store(scope, input, { bytes, encoding: 'binary' });
    },

    async getStream(scope, ref) {
      const read = await readVerified(scope, ref);
      return read ? { meta: read.meta, body: streamBytes(read.bytes) } : null;
    },
  };
}
