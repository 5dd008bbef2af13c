/**
 * The synchronous key-value storage one run's record and event log live in. A Durable Object's
 * `ctx.storage.kv` is one; the in-memory run directory keeps another.
 * Synchronous on purpose: reading the backlog and subscribing to new events happen in one turn,
 * so a resuming reader can neither miss an event nor see one twice. Internal: the run host makes
 * its storage itself (a Durable Object's `ctx.storage.kv`).
 */
export interface RunStorage {
  /** The value stored under `key`, or `undefined`. */
  get<T = unknown>(key: string): T | undefined;
  /** Stores `value` under `key`, replacing what was there. */
  put<T>(key: string, value: T): void;
  /** Removes `key`; whether it was there. */
  delete(key: string): boolean;
  /**
   * Entries whose keys begin with `prefix`, from `start` on, in key order (descending with
   * `reverse`), at most `limit` of them.
   */
  list<T = unknown>(options: RunStorageListOptions): Iterable<[string, T]>;
}

/**
 * What {@link RunStorage.list} selects: the subset of a Durable Object's `SyncKvListOptions` a run log uses.
 */
export interface RunStorageListOptions {
  start?: string;
  prefix?: string;
  reverse?: boolean;
  limit?: number;
}

/**
 * A {@link RunStorage} in memory, with the ordering a Durable Object's storage has. Its state ends
 * with the isolate: the in-memory run directory and the tests use it.
 */
export function createMemoryRunStorage(): RunStorage {
  const entries = new Map<string, unknown>();
  return {
    get: <T>(key: string) => entries.get(key) as T | undefined,
    put: (key, value) => void entries.set(key, value),
    delete: (key) => entries.delete(key),
    *list<T>({ start = '', prefix = '', reverse = false, limit = Infinity }: RunStorageListOptions) {
      const keys = [...entries.keys()].filter((key) => key >= start && key.startsWith(prefix)).sort();
      if (reverse) keys.reverse();
      for (const key of keys.slice(0, limit)) yield [key, entries.get(key) as T] as [string, T];
    },
  };
}
