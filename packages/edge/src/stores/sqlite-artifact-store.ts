import type { ArtifactLimits, ArtifactMeta, ArtifactStore } from '@toolctx/core';
import { type ArtifactDriver, createArtifactStore } from '@toolctx/core/ports';

/** Options of {@link createSqliteArtifactStore}. @experimental */
export interface SqliteArtifactStoreOptions {
  /** The Durable Object's storage (`ctx.storage`) of a class with a `new_sqlite_classes` migration. */
  storage: DurableObjectStorage;
  /** Epoch milliseconds; `Date.now` by default. Decides createdAt and expiry. */
  clock?: () => number;
  limits?: ArtifactLimits;
}

// A row's value may hold at most 2 MB: bytes are kept in chunks of 1 MiB.
const CHUNK_BYTES = 1 << 20;
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS toolctx_artifacts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT NOT NULL, ref TEXT NOT NULL,
    bytes INTEGER NOT NULL, expires_at INTEGER, meta TEXT NOT NULL, UNIQUE (scope, ref));
  CREATE INDEX IF NOT EXISTS toolctx_artifacts_order ON toolctx_artifacts (scope, seq);
  CREATE INDEX IF NOT EXISTS toolctx_artifacts_expiry ON toolctx_artifacts (scope, expires_at);
  CREATE TABLE IF NOT EXISTS toolctx_artifact_chunks (
    seq INTEGER NOT NULL, n INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (seq, n));`;

type Row = { seq: number; meta: string };

/**
 * An {@link ArtifactStore} in a Durable Object's own SQLite storage, for deployments without KV
 * and R2: one table of metas in put order, the bytes in chunks of 1 MiB beside it (a value may
 * hold at most 2 MB). Every write runs in one `transactionSync`, with the caps admitted inside
 * it, so they hold exactly; the object's storage limit (10 GB) bounds what it holds. Make it in
 * the object's constructor and serve the object's scopes from it: one object per tenant or per
 * conversation spreads the load. A driver of the artifact-store kernel (`createArtifactStore` of
 * `@toolctx/core/ports`), which checks, digests, expires and pages.
 *
 * @experimental New with the kernel; its options may still change.
 * @example
 * ```ts
 * import { DurableObject } from 'cloudflare:workers';
 * import type { ArtifactScope } from '@toolctx/core';
 * import { createSqliteArtifactStore } from '@toolctx/edge';
 *
 * // Bound in wrangler.jsonc with a `new_sqlite_classes` migration.
 * export class Artifacts extends DurableObject {
 *   store = createSqliteArtifactStore({ storage: this.ctx.storage, limits: { maxCountPerScope: 1_000 } });
 *   async note(scope: ArtifactScope, text: string) {
 *     return (await this.store.put(scope, { kind: 'note', data: text })).ref;
 *   }
 * }
 * ```
 */
export function createSqliteArtifactStore(options: SqliteArtifactStoreOptions): ArtifactStore {
  const { storage } = options;
  const { sql } = storage;
  sql.exec(SCHEMA);

  const bytesOf = async (seq: number): Promise<Uint8Array> => {
    const chunks = sql.exec<{ data: ArrayBuffer }>(
      'SELECT data FROM toolctx_artifact_chunks WHERE seq = ? ORDER BY n',
      seq,
    );
    return new Uint8Array(await new Blob(chunks.toArray().map((chunk) => chunk.data)).arrayBuffer());
  };

  /** Deletes the chunks of the rows a `DELETE … RETURNING seq` removed. */
  const dropChunks = (rows: { seq: number }[]): void => {
    for (const { seq } of rows) sql.exec('DELETE FROM toolctx_artifact_chunks WHERE seq = ?', seq);
  };

  const driver: ArtifactDriver = {
    put: async (scope, meta, bytes, admission) =>
      storage.transactionSync(() => {
        const expired = sql.exec<{ seq: number }>(
          'DELETE FROM toolctx_artifacts WHERE scope = ? AND expires_at <= ? RETURNING seq',
          scope,
          admission.now,
        );
        dropChunks(expired.toArray());
        if (admission.capped) {
          const totals = sql
            .exec<{ count: number; bytes: number }>(
              'SELECT count(*) AS count, coalesce(sum(bytes), 0) AS bytes FROM toolctx_artifacts WHERE scope = ?',
              scope,
            )
            .one();
          admission.check(totals, meta.bytes);
        }
        const { seq } = sql
          .exec<{ seq: number }>(
            'INSERT INTO toolctx_artifacts (scope, ref, bytes, expires_at, meta) VALUES (?, ?, ?, ?, ?) RETURNING seq',
            scope,
            meta.ref,
            meta.bytes,
            meta.expiresAt ?? null,
            JSON.stringify(meta),
          )
          .one();
        for (let n = 0; n * CHUNK_BYTES < bytes.byteLength; n++) {
          const chunk = bytes.slice(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES);
          sql.exec(
            'INSERT INTO toolctx_artifact_chunks (seq, n, data) VALUES (?, ?, ?)',
            seq,
            n,
            chunk.buffer,
          );
        }
      }),

    async read(scope, ref, withBytes) {
      const [row] = sql
        .exec<Row>('SELECT seq, meta FROM toolctx_artifacts WHERE scope = ? AND ref = ?', scope, ref)
        .toArray();
      if (!row) return null;
      const meta = JSON.parse(row.meta) as ArtifactMeta;
      return withBytes ? { meta, bytes: await bytesOf(row.seq) } : { meta };
    },

    remove: async (scope, ref) =>
      storage.transactionSync(() => {
        const removed = sql
          .exec<Row>(
            'DELETE FROM toolctx_artifacts WHERE scope = ? AND ref = ? RETURNING seq, meta',
            scope,
            ref,
          )
          .toArray();
        dropChunks(removed);
        return removed[0] ? (JSON.parse(removed[0].meta) as ArtifactMeta) : null;
      }),

    async list(scope, { after = '0', limit }) {
      if (!/^\d{1,15}$/.test(after)) return null;
      const rows = sql
        .exec<Row>(
          'SELECT seq, meta FROM toolctx_artifacts WHERE scope = ? AND seq > ? ORDER BY seq LIMIT ?',
          scope,
          Number(after),
          limit + 1,
        )
        .toArray();
      const metas = rows.slice(0, limit).map((row) => JSON.parse(row.meta) as ArtifactMeta);
      return rows.length > limit ? { metas, next: String(rows[limit - 1]!.seq) } : { metas };
    },
  };

  return createArtifactStore(driver, options);
}
