import { ToolctxError } from '@toolctx/core';
import { type IDBPDatabase, type IDBPTransaction, openDB } from 'idb';

/**
 * What happened to a store's IndexedDB connection, in IndexedDB's own words: `versionchange`
 * (another tab opened a newer version or deleted the database, so this connection closed and the
 * next operation reopens it), `blocked` (this store's upgrade waits for another tab to close its
 * connection) and `terminated` (the browser closed the connection abnormally).
 *
 * @example
 * ```ts
 * import type { IdbConnectionChange } from '@toolctx/browser';
 * const onVersionChange = (change: IdbConnectionChange) => console.info(change.type, change.newVersion);
 * ```
 */
export interface IdbConnectionChange {
  type: 'versionchange' | 'blocked' | 'terminated';
  oldVersion?: number;
  newVersion?: number | null;
}

type Database = IDBPDatabase<unknown>;

/**
 * A lazy, self-healing connection to one database: opened on first use at whatever version the
 * database has (so a newer version from another tab never fails with VersionError), upgraded by
 * one version only when one of `storeNames` is missing, closed on `versionchange` so the other tab
 * can upgrade, and reopened by the next operation.
 */
export function idbConnection(
  name: string,
  storeNames: readonly string[],
  upgrade: (db: Database) => void,
  onChange: (change: IdbConnectionChange) => void = () => {},
) {
  let pending: Promise<Database> | undefined;
  const callbacks = {
    upgrade,
    blocked: (oldVersion: number, newVersion: number | null) =>
      onChange({ type: 'blocked', oldVersion, newVersion }),
    blocking: (oldVersion: number, newVersion: number | null, event: IDBVersionChangeEvent) => {
      (event.target as IDBDatabase).close();
      pending = undefined;
      onChange({ type: 'versionchange', oldVersion, newVersion });
    },
    terminated: () => {
      pending = undefined;
      onChange({ type: 'terminated' });
    },
  };
  const connect = async (): Promise<Database> => {
    const db = await openDB(name, undefined, callbacks);
    if (storeNames.every((store) => db.objectStoreNames.contains(store))) return db;
    db.close();
    return openDB(name, db.version + 1, callbacks);
  };
  const database = (): Promise<Database> => {
    pending ??= connect().catch((error) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };

  /**
   * Runs `work` in one transaction and resolves once it has committed (a read-only one: once
   * `work` has its answers). Any failure aborts the whole transaction, so nothing `work` wrote
   * stays; the browser's quota error becomes a `quota-exceeded` ToolctxError. `work` may await
   * only IndexedDB requests of `tx`.
   */
  return async <T, Mode extends IDBTransactionMode>(
    stores: readonly string[],
    mode: Mode,
    work: (tx: IDBPTransaction<unknown, string[], Mode>) => Promise<T>,
  ): Promise<T> => {
    const tx = (await database()).transaction(stores as string[], mode);
    const done = tx.done;
    done.catch(() => {});
    try {
      const result = await work(tx);
      // A read has its answers once its requests succeeded; only a write waits for its commit.
      if (mode !== 'readonly') await done;
      return result;
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already finished or aborted: nothing to undo.
      }
      throw asQuotaError(error);
    }
  };
}

/**
 * Issues IndexedDB requests of one transaction together (IndexedDB runs them in order anyway) and
 * waits for all. When issuing one throws (a quota check, a bad key), the requests already issued
 * fail with the aborted transaction; they are marked handled so only the first error surfaces.
 */
export function together(requests: readonly (() => Promise<unknown>)[]): Promise<unknown[]> {
  const issued: Promise<unknown>[] = [];
  try {
    for (const request of requests) issued.push(request());
  } catch (error) {
    for (const promise of issued) promise.catch(() => {});
    throw error;
  }
  return Promise.all(issued);
}

function asQuotaError(error: unknown): unknown {
  if ((error as Error | null)?.name !== 'QuotaExceededError') return error;
  return new ToolctxError(
    'quota-exceeded',
    'The browser refused to store more: this origin has used up its storage quota. Nothing was stored; delete artifacts or free space in the browser.',
    { details: { limit: 'origin-quota' }, cause: error },
  );
}
