import type { ScopeTotals } from './limits.js';
import type { ArtifactLimits, ArtifactMeta } from './types.js';

/**
 * One put's admission to its scope's caps, handed to the driver's write: the driver calls `check`
 * in the same atomic step that writes (a transaction, a synchronous block, a Durable Object's
 * turn), with what the scope holds then, so concurrent puts cannot both slip under a cap.
 *
 * @experimental The driver interface may still change.
 * @example
 * ```ts
 * import type { ArtifactAdmission } from '@toolctx/core/ports';
 * declare const admission: ArtifactAdmission;
 * admission.check({ count: 3, bytes: 1_000 }, 200); // throws quota-exceeded when a cap is passed
 * ```
 */
export interface ArtifactAdmission {
  /** The store's caps, for a driver that decides elsewhere (with `admitToScope`, as a Durable Object does). */
  readonly limits: Readonly<ArtifactLimits>;
  /** Whether a per-scope cap is set: when not, `check` never refuses and a driver need not count. */
  readonly capped: boolean;
  /** The store's clock (epoch ms) when the put is admitted: artifacts expired by then do not count. */
  readonly now: number;
  /** Throws `quota-exceeded` unless a scope holding `totals` (live artifacts) has room for one more of `bytes`. */
  check(totals: ScopeTotals, bytes: number): void;
}

/**
 * A streamed put as the kernel hands it to {@link ArtifactDriver.putStream}.
 *
 * @experimental The driver interface may still change.
 * @example
 * ```ts
 * import type { ArtifactUpload } from '@toolctx/core/ports';
 * declare const upload: ArtifactUpload;
 * upload.draft.ref; // the artifact's ref, known before its first byte
 * ```
 */
export interface ArtifactUpload {
  /** The meta as known before the bytes: every field but `bytes`, and `digest` only when the caller supplied one. */
  readonly draft: Omit<ArtifactMeta, 'bytes' | 'digest'> & { digest?: string };
  readonly admission: ArtifactAdmission;
  /** Call with each running total of bytes; throws `quota-exceeded` past `maxArtifactBytes`. */
  progress(total: number): void;
  /**
   * Call once the stream has ended, before its bytes become visible, with their size and sha-256
   * hex: the meta to keep, or throws `integrity-failed` when a supplied digest does not match.
   */
  finish(bytes: number, digest: string): ArtifactMeta;
}

/**
 * What a driver's `read` finds: the meta, and the bytes when asked for (absent when they are gone).
 *
 * @experimental The driver interface may still change.
 * @example
 * ```ts
 * import type { ArtifactRecord } from '@toolctx/core/ports';
 * declare const record: ArtifactRecord;
 * record.bytes?.byteLength === record.meta.bytes;
 * ```
 */
export interface ArtifactRecord {
  meta: ArtifactMeta;
  bytes?: Uint8Array;
}

/**
 * The storage under an artifact store made by {@link createArtifactStore}: bytes and index
 * operations only. The kernel does the contract (scope keys, field checks, refs, expiry, caps,
 * digests on put and get, encodings, list limits and cursors); a driver keeps what it is given
 * and finds it again. `scope` is always `scopeKey(scope)`, and `ref` has the shape of a ref.
 *
 * @experimental The driver interface may still change.
 * @example
 * ```ts
 * import type { ArtifactMeta } from '@toolctx/core';
 * import { type ArtifactDriver, createArtifactStore } from '@toolctx/core/ports';
 *
 * // Rows in Maps, one a scope, kept in insertion order: a driver in a dozen lines.
 * type Row = { meta: ArtifactMeta; bytes: Uint8Array; seq: number };
 * const scopes = new Map<string, Map<string, Row>>();
 * const rowsOf = (scope: string) => scopes.get(scope) ?? scopes.set(scope, new Map()).get(scope)!;
 * let seq = 0;
 * const driver: ArtifactDriver = {
 *   async put(scope, meta, bytes, admission) {
 *     const rows = rowsOf(scope);
 *     const held = [...rows.values()].reduce((sum, row) => sum + row.meta.bytes, 0);
 *     admission.check({ count: rows.size, bytes: held }, meta.bytes);
 *     rows.set(meta.ref, { meta, bytes, seq: ++seq });
 *   },
 *   async read(scope, ref, withBytes) {
 *     const row = rowsOf(scope).get(ref);
 *     if (!row) return null;
 *     return withBytes ? { meta: { ...row.meta }, bytes: row.bytes.slice() } : { meta: { ...row.meta } };
 *   },
 *   async remove(scope, ref) {
 *     const row = rowsOf(scope).get(ref);
 *     rowsOf(scope).delete(ref);
 *     return row?.meta ?? null;
 *   },
 *   async list(scope, { after = '0', limit }) {
 *     const rest = [...rowsOf(scope).values()].filter((row) => row.seq > Number(after));
 *     const page = rest.slice(0, limit);
 *     return { metas: page.map((row) => row.meta), next: rest.length > limit ? String(page.at(-1)!.seq) : undefined };
 *   },
 * };
 * const store = createArtifactStore(driver);
 * ```
 */
export interface ArtifactDriver {
  /**
   * Keeps an artifact: its meta and bytes, all or nothing. Call `admission.check` with the scope's
   * live totals in the same atomic step as the write (skip it when `admission.capped` is false);
   * when it throws, store nothing and let the error through.
   */
  put(scope: string, meta: ArtifactMeta, bytes: Uint8Array, admission: ArtifactAdmission): Promise<void>;
  /**
   * Optional: keeps a streamed artifact without holding it whole (without it the kernel reads the
   * stream into memory and calls `put`). Report the running total to `upload.progress`, take the
   * meta from `upload.finish` before the bytes become visible, admit as `put` does, and cancel or
   * abort what was begun on any failure.
   */
  putStream?(scope: string, data: ReadableStream<Uint8Array>, upload: ArtifactUpload): Promise<ArtifactMeta>;
  /**
   * The meta of `ref` (and its bytes when `withBytes`), the caller's own copy; `'expired'` when
   * the driver remembers that it expired and was removed; `null` when it knows nothing of it.
   * Expired metas are returned as any other: the kernel decides.
   */
  read(scope: string, ref: string, withBytes: boolean): Promise<ArtifactRecord | 'expired' | null>;
  /**
   * Optional: the bytes of `meta` as a stream that errors with `integrity-failed` at the end when
   * they do not match `meta.digest` (without it the kernel reads, verifies and streams them), or
   * `null` when the bytes are gone.
   */
  readStream?(scope: string, meta: ArtifactMeta): Promise<ReadableStream<Uint8Array> | null>;
  /**
   * Removes `ref`, its bytes and its share of the scope's totals, in one step: answers the meta it
   * removed, or `null` when it was not there (a concurrent delete took it). `expired` says why
   * the kernel removes it: a driver may remember the ref so `read` answers `'expired'`.
   */
  remove(scope: string, ref: string, expired: boolean): Promise<ArtifactMeta | null>;
  /**
   * At most `limit` metas of the scope in a stable order, starting after the position `after`
   * (from the start when absent), expired ones included; `next` is the position after the last
   * one given, present when more may follow. `null` when `after` is not a position this driver made.
   */
  list(
    scope: string,
    page: { after?: string; limit: number },
  ): Promise<{ metas: ArtifactMeta[]; next?: string | undefined } | null>;
}
