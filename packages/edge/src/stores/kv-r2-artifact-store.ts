import {
  type ArtifactLimits,
  type ArtifactMeta,
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
  verifyArtifactBytes,
} from '@toolctx/core/ports';
import type { Admission } from './admission-ledger.js';
import { durableAdmitter, localAdmitter } from './admitters.js';
import type { ArtifactAdmissions } from './artifact-admissions.js';
import {
  type ArtifactKeys,
  artifactKeys,
  assertMetaFits,
  commitIndex,
  customMetadataOf,
  expireArtifact,
  isTombstone,
  type ListingMetadata,
  listingPrefix,
  refKey,
  scopePart,
} from './artifact-index.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';
import { clearPending, markPending, pendingKey } from './pending-puts.js';
import { uploadStream, verifyingStream } from './r2-stream-io.js';
import { type ScopeUsage, scopeUsage } from './scope-usage.js';
import { checkStreamDigest, type StreamSkeleton, streamSkeleton } from './stream-meta.js';

/** Options of {@link createKvR2ArtifactStore}. */
export interface KvR2ArtifactStoreOptions {
  /** KV namespace for the metadata index (pass `env.X`). */
  kv: KVNamespace;
  /** R2 bucket for the bytes (pass `env.X`). */
  bucket: R2Bucket;
  /** Put before every KV and R2 key, so stores can share a namespace and a bucket; `artifacts/` by default. */
  prefix?: string;
  /** Epoch milliseconds; `Date.now` by default. Decides createdAt and expiry. */
  clock?: () => number;
  limits?: ArtifactLimits;
  /**
   * The {@link ArtifactAdmissions} Durable Object namespace (pass `env.X`): with it the per-scope
   * caps hold exactly across every Worker; without it, exactly within one store instance and
   * within `cap × isolates` across isolates putting into one scope at once.
   */
  admissions?: DurableObjectNamespace<ArtifactAdmissions>;
}

const admissionOf = ({ ref, bytes, expiresAt }: ArtifactMeta): Admission =>
  expiresAt === undefined ? { ref, bytes } : { ref, bytes, expiresAt };

/**
 * An {@link ArtifactStore} on Cloudflare: bytes in R2 under `<prefix><scopeKey(scope)>/<ref>`,
 * metadata in KV twice (by ref for `head`/`get`, and by creation time for `list`, the meta also
 * in the KV key's metadata so a page costs one KV list) and a copy in the R2 object's
 * `customMetadata`, from which {@link rebuildArtifactIndex} restores KV. R2 is written first,
 * KV second; a failed KV write removes the R2 object, so a failed put leaves nothing visible.
 * A put is marked in R2 before its first byte goes there and unmarked once it is indexed, so
 * what a Worker killed mid-put leaves (an unindexed object, a multipart upload left open: never
 * listed or readable) is found and removed by {@link sweepExpiredArtifacts} once the mark is
 * `abandonedAfterMs` old. Digests are verified on `get` (and at the end of `getStream`).
 *
 * Per-scope caps are checked against the scope's KV listing plus the admissions granted in the
 * last two minutes, which KV's eventually consistent listing may not show yet. Without
 * `admissions` that ledger lives in the store instance, so the caps hold exactly for any number of
 * concurrent puts through one instance (one per isolate in the example Worker), but each isolate
 * putting into the same scope at the same time admits on its own view: with k isolates the scope
 * can reach k × the cap (count and bytes). Measured in workerd by
 * `packages/edge/src/stores/artifact-admissions.test.ts`: 2 instances firing 45 concurrent puts
 * under a cap of 5 admit 10, 4 instances firing 85 admit 20.
 * With `admissions` one Durable Object per scope keeps the ledger and the caps hold exactly
 * across all of them (as long as KV's listings show a write within two minutes).
 *
 * Expiry follows `clock`: expired artifacts are invisible at once and deleted when met; their KV
 * keys carry a KV expiration, and {@link sweepExpiredArtifacts} (from a cron trigger) deletes the
 * R2 bytes of those nobody meets again. `putStream` streams into R2 (one part of 5 MiB in memory
 * at a time) and `getStream` streams out.
 *
 * @example
 * ```ts
 * import type { Env } from '@toolctx/edge';
 * declare const env: Env;
 * import { createKvR2ArtifactStore } from '@toolctx/edge';
 * const store = createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS });
 * const scope = { tenant: 'acme', principal: 'u1', conversation: 'c1' };
 * const meta = await store.put(scope, { kind: 'report', data: { rows: [1, 2] } });
 * (await store.get(scope, meta.ref))?.data; // { rows: [1, 2] }
 * ```
 */
export function createKvR2ArtifactStore(options: KvR2ArtifactStoreOptions): ArtifactStore {
  const { kv, bucket } = options;
  const prefix = options.prefix ?? 'artifacts/';
  const clock = options.clock ?? Date.now;
  const limits = checkArtifactLimits(options.limits ?? {});
  const capped = limits.maxBytesPerScope !== undefined || limits.maxCountPerScope !== undefined;
  const admitter = options.admissions ? durableAdmitter(options.admissions, prefix) : localAdmitter();

  /** Admits an artifact to its scope's caps, or throws quota-exceeded; `usage` is a fresh listing. */
  const admit = async (part: string, usage: ScopeUsage, candidate: Admission) => {
    const listed = usage.live.map(({ ref, bytes, expiresAt }) =>
      expiresAt === undefined ? { ref, bytes } : { ref, bytes, expiresAt },
    );
    const answer = await admitter.admit(part, { listed, candidate, limits, now: clock() });
    if (!answer.admitted) admitToScope(limits, answer.totals, candidate.bytes);
  };

  /** Forgets an admission whose put failed or whose artifact was deleted. */
  const release = async (part: string, ref: string) => {
    if (capped) await admitter.release(part, ref);
  };

  const expire = (part: string, meta: Pick<ArtifactMeta, 'createdAt' | 'ref'>) =>
    expireArtifact(kv, bucket, artifactKeys(prefix, part, meta));

  /** The live meta of `ref` in the scope, or null; an expired one is cleaned up on sight. */
  const live = async (scope: ArtifactScope, ref: string) => {
    const part = await scopePart(scope);
    if (!isRef(ref)) return null;
    const stored = await kv.get<ArtifactMeta | { expired: true }>(refKey(prefix, part, ref), 'json');
    if (!stored || isTombstone(stored)) return null;
    if (isArtifactExpired(stored, clock())) {
      await expire(part, stored);
      return null;
    }
    return { part, meta: stored, keys: artifactKeys(prefix, part, stored) };
  };

  /** The R2 object of a live artifact; a KV entry whose object is gone is removed (R2 is the truth). */
  const object = async (scope: ArtifactScope, ref: string) => {
    const found = await live(scope, ref);
    if (!found) return null;
    const stored = await bucket.get(found.keys.object);
    if (!stored) {
      await Promise.all([kv.delete(found.keys.ref), kv.delete(found.keys.listing)]);
      await release(found.part, ref);
      return null;
    }
    return { meta: found.meta, stored };
  };

  /** Caps checked against the scope's listing, sweeping expired artifacts on the way. */
  const usageOf = async (part: string) => {
    const usage = await scopeUsage(kv, listingPrefix(prefix, part), clock());
    await Promise.all(usage.expired.map((meta) => expire(part, meta)));
    return usage;
  };

  /** Writes the index of an admitted artifact; a failed write also gives its admission back. */
  const committed = async (part: string, keys: ArtifactKeys, meta: ArtifactMeta) => {
    try {
      await commitIndex(kv, bucket, keys, meta);
    } catch (error) {
      await release(part, meta.ref).catch(() => {});
      throw error;
    }
  };

  const metaOfListing = async (part: string, metadata: ListingMetadata | null, ref: string) => {
    if (metadata && !('partial' in metadata)) return metadata;
    const stored = await kv.get<ArtifactMeta | { expired: true }>(refKey(prefix, part, ref), 'json');
    return stored && !isTombstone(stored) ? stored : null;
  };

  return {
    capabilities: Object.freeze({ streaming: true, limits }),

    async put(scope, input) {
      const { encoding, bytes } = encodeArtifactData(input?.data);
      admitArtifactSize(limits, bytes.byteLength);
      const meta = await createArtifactMeta(input, { ref: newRef(), bytes, encoding, now: clock() });
      assertMetaFits(meta);
      const part = await scopePart(scope);
      const keys = artifactKeys(prefix, part, meta);
      const pending = pendingKey(prefix, part, meta.ref);
      // The put's mark, then the bytes; the caps are counted meanwhile, and the object removed if they refuse.
      const [usage, stored] = await Promise.allSettled([
        capped ? usageOf(part) : undefined,
        markPending(bucket, pending, meta.ref, { createdAt: meta.createdAt, startedAt: clock() }).then(() =>
          bucket.put(keys.object, bytes, {
            customMetadata: customMetadataOf(meta),
            httpMetadata: { contentType: meta.mediaType },
            sha256: meta.digest,
          }),
        ),
      ]);
      if (stored.status === 'rejected') {
        await clearPending(bucket, pending);
        throw stored.reason;
      }
      try {
        if (usage.status === 'rejected') throw usage.reason;
        if (usage.value) await admit(part, usage.value, admissionOf(meta));
      } catch (error) {
        await bucket.delete(keys.object);
        await clearPending(bucket, pending);
        throw error;
      }
      // Indexed, or its bytes removed by commitIndex: either way the put has settled.
      try {
        await committed(part, keys, meta);
      } finally {
        await clearPending(bucket, pending);
      }
      return meta;
    },

    async head(scope, ref) {
      return (await live(scope, ref))?.meta ?? null;
    },

    async get(scope, ref) {
      const found = await object(scope, ref);
      if (!found) return null;
      const bytes = new Uint8Array(await found.stored.arrayBuffer());
      await verifyArtifactBytes(found.meta, bytes);
      return { meta: found.meta, data: decodeArtifactData(found.meta.encoding, bytes) };
    },

    async delete(scope, ref) {
      const found = await live(scope, ref);
      if (!found) return false;
      // R2 first: an interrupted delete leaves an index entry without bytes (cleaned up when met),
      // never bytes without an index that rebuildArtifactIndex would bring back.
      await bucket.delete(found.keys.object);
      await Promise.all([kv.delete(found.keys.ref), kv.delete(found.keys.listing)]);
      await release(found.part, ref);
      return true;
    },

    async list(scope, { cursor, limit = 100 } = {}) {
      if (!(Number.isSafeInteger(limit) && limit >= 1)) {
        throw new ToolctxError('invalid-argument', `list "limit" must be a whole number ≥ 1, got ${limit}.`);
      }
      const position = cursor === undefined ? undefined : decodeCursor(cursor);
      const part = await scopePart(scope);
      const start = listingPrefix(prefix, part);
      const now = clock();
      const artifacts: ArtifactMeta[] = [];
      const expired: ArtifactMeta[] = [];
      let kvCursor = position?.kv;
      let after = position?.after ?? '';
      let complete = false;
      // KV pages are asked for exactly the number still missing, so a page ends where KV's cursor
      // points and the next list resumes there; expired entries are skipped, so loop.
      while (artifacts.length < limit) {
        const size = Math.min(1_000, limit - artifacts.length);
        const page = await kv.list<ListingMetadata>(
          kvCursor === undefined
            ? { prefix: start, limit: size }
            : { prefix: start, limit: size, cursor: kvCursor },
        );
        for (const { name, metadata } of page.keys) {
          const order = name.slice(start.length);
          if (order <= after) continue;
          after = order;
          const meta = await metaOfListing(part, metadata ?? null, order.slice(order.indexOf('.') + 1));
          if (!meta) continue;
          if (isArtifactExpired(meta, now)) expired.push(meta);
          else artifacts.push(meta);
        }
        if (page.list_complete) {
          complete = true;
          break;
        }
        kvCursor = page.cursor;
      }
      await Promise.all(expired.map((meta) => expire(part, meta)));
      if (complete || kvCursor === undefined) return { artifacts };
      return { artifacts, cursor: encodeCursor({ kv: kvCursor, after }) };
    },

    async putStream(scope, input) {
      let skeleton: StreamSkeleton;
      try {
        skeleton = await streamSkeleton(input, newRef(), clock());
        assertMetaFits({ ...skeleton, bytes: 0, digest: '' });
      } catch (error) {
        await input?.data?.cancel?.().catch(() => {});
        throw error;
      }
      const part = await scopePart(scope);
      const usage = capped ? await usageOf(part) : undefined;
      if (usage) admitToScope(limits, usage, 0);
      const keys = artifactKeys(prefix, part, skeleton);
      const pending = pendingKey(prefix, part, skeleton.ref);
      const supplied = input.digest?.toLowerCase();
      let marked = false;
      let uploaded: { bytes: number; digest: string };
      try {
        uploaded = await uploadStream({
          bucket,
          key: keys.object,
          stream: input.data,
          contentType: skeleton.mediaType,
          // A multipart upload fixes its metadata before the first part: size and digest are
          // unknown then, so rebuildArtifactIndex recomputes them from the object.
          earlyMetadata: customMetadataOf(supplied ? { ...skeleton, digest: supplied } : skeleton),
          finalMetadata: (size, sha) => customMetadataOf({ ...skeleton, bytes: size, digest: sha }),
          onProgress: (total) => {
            admitArtifactSize(limits, total);
            if (usage) admitToScope(limits, usage, total);
          },
          beforeCommit: (_size, sha) => checkStreamDigest(supplied, sha),
          beforeFirstWrite: async (uploadId) => {
            marked = true;
            const mark = { createdAt: skeleton.createdAt, startedAt: clock() };
            await markPending(
              bucket,
              pending,
              skeleton.ref,
              uploadId === undefined ? mark : { ...mark, uploadId },
            );
          },
        });
      } catch (error) {
        // uploadStream aborted the upload: nothing of it is left in R2.
        if (marked) await clearPending(bucket, pending);
        throw error;
      }
      const meta: ArtifactMeta = { ...skeleton, ...uploaded };
      if (capped) {
        // The check above ran on the listing before the upload; this one admits, now the size is known.
        try {
          await admit(part, await usageOf(part), admissionOf(meta));
        } catch (error) {
          await bucket.delete(keys.object);
          await clearPending(bucket, pending);
          throw error;
        }
      }
      try {
        await committed(part, keys, meta);
      } finally {
        await clearPending(bucket, pending);
      }
      return meta;
    },

    async getStream(scope, ref) {
      const found = await object(scope, ref);
      return found ? { meta: found.meta, body: verifyingStream(found.meta, found.stored.body) } : null;
    },

    async wasExpired(scope, ref) {
      const part = await scopePart(scope);
      if (!isRef(ref)) return false;
      const stored = await kv.get(refKey(prefix, part, ref), 'json');
      return isTombstone(stored) || (stored !== null && isArtifactExpired(stored as ArtifactMeta, clock()));
    },
  };
}
