import { ToolctxError } from '../errors.js';
import { decodeListCursor, encodeListCursor, unknownCursor } from './cursor.js';
import type { ArtifactAdmission, ArtifactDriver, ArtifactUpload } from './driver.js';
import { decodeArtifactData, encodeArtifactData } from './encoding.js';
import { admitArtifactSize, admitToScope, checkArtifactLimits } from './limits.js';
import { checkPut, createArtifactMeta, isArtifactExpired, metaOf, verifyArtifactBytes } from './meta.js';
import { isRef, newRef } from './ref.js';
import { scopeKey } from './scope-key.js';
import { readAllBytes, streamBytes } from './stream-bytes.js';
import type {
  ArtifactEncoding,
  ArtifactLimits,
  ArtifactMeta,
  ArtifactPut,
  ArtifactScope,
  ArtifactStore,
} from './types.js';

/**
 * Options of {@link createArtifactStore}.
 *
 * @experimental The driver interface may still change.
 * @example
 * ```ts
 * import type { ArtifactStoreOptions } from '@toolctx/core/ports';
 * const options: ArtifactStoreOptions = { limits: { maxCountPerScope: 1_000 } };
 * ```
 */
export interface ArtifactStoreOptions {
  /** Epoch milliseconds; `Date.now` by default. Decides createdAt and expiry. */
  clock?: () => number;
  /** The per-scope caps, checked once here. */
  limits?: ArtifactLimits;
}

/**
 * The artifact-store kernel: an {@link ArtifactStore} over a driver that only keeps bytes and
 * metas. The kernel does every step of the contract, once for every store: the scope key; the
 * checks of kind, label, media type and ttl; the ref; the encoding; the size cap; the sha-256
 * digest on put (and the supplied one compared) and on every get; expiry (expired artifacts are
 * invisible, and removed through the driver when met); the per-scope caps, admitted in the
 * driver's atomic step; list limits, order and cursors; streaming, by buffering when the driver
 * cannot stream. The memory, IndexedDB, KV+R2 and Durable Object SQLite stores are drivers under it.
 *
 * @experimental The driver interface may still change.
 * @example
 * ```ts
 * import { type ArtifactDriver, createArtifactStore } from '@toolctx/core/ports';
 * declare const driver: ArtifactDriver;
 * const store = createArtifactStore(driver, { limits: { maxBytesPerScope: 10_000_000 } });
 * const scope = { tenant: 't', principal: 'p', conversation: 'c' };
 * const meta = await store.put(scope, { kind: 'note', data: 'hello' });
 * ```
 */
export function createArtifactStore(
  driver: ArtifactDriver,
  options: ArtifactStoreOptions = {},
): ArtifactStore {
  const clock = options.clock ?? Date.now;
  const limits = checkArtifactLimits(options.limits ?? {});
  const capped = limits.maxBytesPerScope !== undefined || limits.maxCountPerScope !== undefined;

  // The last scope seen, field by field: a run asks about one scope over and over, and equal
  // fields give the same key, so it is encoded once.
  let last: ArtifactScope & { key: string } = { tenant: '', principal: '', conversation: '', key: '' };
  const keyOf = (scope: ArtifactScope): string => {
    if (
      last.key !== '' &&
      scope !== null &&
      typeof scope === 'object' &&
      scope.tenant === last.tenant &&
      scope.principal === last.principal &&
      scope.conversation === last.conversation
    ) {
      return last.key;
    }
    const key = scopeKey(scope);
    last = { tenant: scope.tenant, principal: scope.principal, conversation: scope.conversation, key };
    return key;
  };

  const admission = (): ArtifactAdmission => ({
    limits,
    capped,
    now: clock(),
    check: (totals, bytes) => admitToScope(limits, totals, bytes),
  });

  // The verbs every call meets (put, head, get, delete) are promise chains rather than async
  // functions nested in each other: each async frame costs a store call a microtask turn.
  const put = (
    scope: ArtifactScope,
    input: Omit<ArtifactPut, 'data'>,
    { bytes, encoding }: { bytes: Uint8Array; encoding: ArtifactEncoding },
  ): Promise<ArtifactMeta> => {
    const key = keyOf(scope);
    admitArtifactSize(limits, bytes.byteLength);
    return createArtifactMeta(input, { ref: newRef(), bytes, encoding, createdAt: clock() }).then((meta) =>
      // Admitted after the digest's await, in the driver's write, so concurrent puts cannot both slip under a cap.
      driver.put(key, meta, bytes, admission()).then(() => meta),
    );
  };

  /** The live record of `ref`, or null; an expired one is removed on sight. */
  const live = (scope: ArtifactScope, ref: string, withBytes: boolean) => {
    const key = keyOf(scope);
    if (!isRef(ref)) return Promise.resolve(null);
    return driver.read(key, ref, withBytes).then((found) => {
      if (found === null || found === 'expired') return null;
      if (isArtifactExpired(found.meta, clock())) return driver.remove(key, ref, true).then(() => null);
      // Bytes gone from under their meta (a lost object): the index entry goes too.
      if (withBytes && !found.bytes) return driver.remove(key, ref, false).then(() => null);
      return { key, meta: found.meta, bytes: found.bytes! };
    });
  };

  const readVerified = (scope: ArtifactScope, ref: string) =>
    live(scope, ref, true).then((found) =>
      found ? verifyArtifactBytes(found.meta, found.bytes).then(() => found) : null,
    );

  /** Runs `verb` with a throw turned into a rejection, as an async function would. */
  const settle = <T>(verb: () => Promise<T>): Promise<T> => {
    try {
      return verb();
    } catch (error) {
      return Promise.reject(error);
    }
  };

  return {
    capabilities: Object.freeze({ streaming: true, limits }),

    put: (scope, input) => settle(() => put(scope, input, encodeArtifactData(input?.data))),

    head: (scope, ref) => settle(() => live(scope, ref, false).then((found) => found?.meta ?? null)),

    get: (scope, ref) =>
      settle(() =>
        readVerified(scope, ref).then((read) =>
          read ? { meta: read.meta, data: decodeArtifactData(read.meta.encoding, read.bytes) } : null,
        ),
      ),

    // One driver step, so two deletes of one ref cannot both answer true; an expired one answers false.
    delete: (scope, ref) =>
      settle(() => {
        const key = keyOf(scope);
        if (!isRef(ref)) return Promise.resolve(false);
        return driver
          .remove(key, ref, false)
          .then((removed) => removed !== null && !isArtifactExpired(removed, clock()));
      }),

    async list(scope, { cursor, limit = 100 } = {}) {
      if (!(Number.isSafeInteger(limit) && limit >= 1)) {
        throw new ToolctxError('invalid-argument', `list "limit" must be a whole number ≥ 1, got ${limit}.`);
      }
      let after = cursor === undefined ? undefined : decodeListCursor(cursor);
      const key = keyOf(scope);
      const now = clock();
      const artifacts: ArtifactMeta[] = [];
      const expired: ArtifactMeta[] = [];
      // Expired metas are skipped, so a page is asked for again until it is full or the scope ends.
      do {
        const wanted = limit - artifacts.length;
        const page = await driver.list(
          key,
          after === undefined ? { limit: wanted } : { after, limit: wanted },
        );
        if (page === null) throw unknownCursor(cursor);
        for (const meta of page.metas) (isArtifactExpired(meta, now) ? expired : artifacts).push(meta);
        after = page.next;
      } while (after !== undefined && artifacts.length < limit);
      await Promise.all(expired.map((meta) => driver.remove(key, meta.ref, true)));
      return after === undefined ? { artifacts } : { artifacts, cursor: encodeListCursor(after) };
    },

    async putStream(scope, input) {
      if (!driver.putStream)
        return put(scope, input, {
          bytes: await readAllBytes(input?.data, limits.maxArtifactBytes),
          encoding: 'binary',
        });
      const key = keyOf(scope);
      const stored = { ref: newRef(), encoding: 'binary' as const, createdAt: clock() };
      let checked: ReturnType<typeof checkPut>;
      try {
        checked = checkPut(input, 'binary');
      } catch (error) {
        await input?.data?.cancel?.().catch(() => {});
        throw error;
      }
      // The meta before its bytes: no size yet, and a digest only when one was supplied.
      const draft: ArtifactUpload['draft'] = metaOf(
        input,
        stored,
        { ...checked, supplied: undefined },
        0,
        '',
      );
      delete (draft as Partial<ArtifactMeta>).bytes;
      delete draft.digest;
      if (checked.supplied !== undefined) draft.digest = checked.supplied;
      return driver.putStream(key, input.data, {
        draft,
        admission: admission(),
        progress: (total) => admitArtifactSize(limits, total),
        finish: (bytes, digest) => metaOf(input, stored, checked, bytes, digest),
      });
    },

    async getStream(scope, ref) {
      if (!driver.readStream) {
        const read = await readVerified(scope, ref);
        return read ? { meta: read.meta, body: streamBytes(read.bytes) } : null;
      }
      const found = await live(scope, ref, false);
      if (!found) return null;
      const body = await driver.readStream(found.key, found.meta);
      if (body) return { meta: found.meta, body };
      await driver.remove(found.key, ref, false);
      return null;
    },

    async wasExpired(scope, ref) {
      const key = keyOf(scope);
      if (!isRef(ref)) return false;
      const found = await driver.read(key, ref, false);
      return found === 'expired' || (found !== null && isArtifactExpired(found.meta, clock()));
    },
  };
}
