import type { ArtifactLimits, ArtifactMeta, ArtifactStore } from '@toolctx/core';
import { type ArtifactAdmission, type ArtifactDriver, createArtifactStore } from '@toolctx/core/ports';
import type { CountedArtifact } from './admission-ledger.js';
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
import { clearPending, markPending, pendingKey } from './pending-puts.js';
import { uploadStream, verifyingStream } from './r2-stream-io.js';
import { type ScopeUsage, scopeUsage } from './scope-usage.js';

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

/** A list position as the driver made it: KV's cursor and the last order key passed; null for any other. */
function positionOf(after: string): [string, string] | null {
  try {
    const parsed: unknown = JSON.parse(after);
    return Array.isArray(parsed) && parsed.length === 2 && parsed.every((item) => typeof item === 'string')
      ? (parsed as [string, string])
      : null;
  } catch {
    return null;
  }
}

const admissionOf = ({ ref, bytes, expiresAt }: ArtifactMeta): CountedArtifact =>
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
 * at a time) and `getStream` streams out. A driver of the artifact-store kernel
 * (`createArtifactStore` of `@toolctx/core/ports`), which checks, digests, expires and pages;
 * this file keeps bytes in R2 and the index in KV, and admits through the ledger.
 *
 * @example
 * ```ts
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * declare const env: ExampleWorkerEnv;
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
  const admitter = options.admissions ? durableAdmitter(options.admissions, prefix) : localAdmitter();
  // Without a cap nothing is admitted, so a delete has no admission to give back.
  const capped =
    options.limits?.maxBytesPerScope !== undefined || options.limits?.maxCountPerScope !== undefined;

  /** Admits an artifact to its scope's caps through the ledger, or throws quota-exceeded; `usage` is a fresh listing. */
  const admit = async (
    part: string,
    usage: ScopeUsage,
    candidate: CountedArtifact,
    admission: ArtifactAdmission,
  ) => {
    const listed = usage.live.map(({ ref, bytes, expiresAt }) =>
      expiresAt === undefined ? { ref, bytes } : { ref, bytes, expiresAt },
    );
    const { limits, now } = admission;
    const answer = await admitter.admit(part, { listed, candidate, limits, now });
    if (!answer.admitted) admission.check(answer.totals, candidate.bytes);
  };

  /** Forgets an admission whose put failed or whose artifact was deleted. */
  const release = async (part: string, ref: string) => {
    if (capped) await admitter.release(part, ref);
  };

  /** What the scope's listing holds, sweeping expired artifacts on the way. */
  const usageOf = async (part: string, now: number) => {
    const usage = await scopeUsage(kv, listingPrefix(prefix, part), now);
    await Promise.all(
      usage.expired.map((meta) => expireArtifact(kv, bucket, artifactKeys(prefix, part, meta))),
    );
    return usage;
  };

  /** Admits an artifact whose bytes are in R2 and writes its index; on any failure, its bytes go. */
  const commit = async (
    part: string,
    keys: ArtifactKeys,
    pending: string,
    meta: ArtifactMeta,
    admission: ArtifactAdmission,
    usage: Promise<ScopeUsage> | undefined,
  ) => {
    try {
      if (usage) await admit(part, await usage, admissionOf(meta), admission);
    } catch (error) {
      await bucket.delete(keys.object);
      await clearPending(bucket, pending);
      throw error;
    }
    // Indexed, or its bytes removed by commitIndex: either way the put has settled.
    try {
      await commitIndex(kv, bucket, keys, meta);
    } catch (error) {
      await release(part, meta.ref).catch(() => {});
      throw error;
    } finally {
      await clearPending(bucket, pending);
    }
  };

  const metaOfListing = async (part: string, metadata: ListingMetadata | null, ref: string) => {
    if (metadata && !('partial' in metadata)) return metadata;
    const stored = await kv.get<ArtifactMeta | { expired: true }>(refKey(prefix, part, ref), 'json');
    return stored && !isTombstone(stored) ? stored : null;
  };

  const driver: ArtifactDriver = {
    async put(scope, meta, bytes, admission) {
      assertMetaFits(meta);
      const part = await scopePart(scope);
      const keys = artifactKeys(prefix, part, meta);
      const pending = pendingKey(prefix, part, meta.ref);
      // The put's mark, then the bytes; the scope is counted meanwhile, and the object removed if the caps refuse.
      const usage = admission.capped ? usageOf(part, admission.now) : undefined;
      usage?.catch(() => {});
      try {
        await markPending(bucket, pending, meta.ref, { createdAt: meta.createdAt, startedAt: admission.now });
        await bucket.put(keys.object, bytes, {
          customMetadata: customMetadataOf(meta),
          httpMetadata: { contentType: meta.mediaType },
          sha256: meta.digest,
        });
      } catch (error) {
        await usage?.catch(() => {});
        await clearPending(bucket, pending);
        throw error;
      }
      await commit(part, keys, pending, meta, admission, usage);
    },

    async putStream(scope, data, { draft, admission, progress, finish }) {
      const part = await scopePart(scope);
      try {
        assertMetaFits({ ...draft, bytes: 0, digest: '' });
      } catch (error) {
        await data?.cancel?.().catch(() => {});
        throw error;
      }
      const usage = admission.capped ? await usageOf(part, admission.now) : undefined;
      if (usage) admission.check(usage, 0);
      const keys = artifactKeys(prefix, part, draft);
      const pending = pendingKey(prefix, part, draft.ref);
      let meta: ArtifactMeta | undefined;
      let marked = false;
      try {
        await uploadStream({
          bucket,
          key: keys.object,
          stream: data,
          contentType: draft.mediaType,
          // A multipart upload fixes its metadata before the first part: size and digest are
          // unknown then, so rebuildArtifactIndex recomputes them from the object.
          earlyMetadata: customMetadataOf(draft),
          finalMetadata: () => customMetadataOf(meta!),
          onProgress: (total) => {
            progress(total);
            if (usage) admission.check(usage, total);
          },
          beforeCommit: (size, digest) => {
            meta = finish(size, digest);
          },
          beforeFirstWrite: async (uploadId) => {
            marked = true;
            const mark = { createdAt: draft.createdAt, startedAt: admission.now };
            await markPending(
              bucket,
              pending,
              draft.ref,
              uploadId === undefined ? mark : { ...mark, uploadId },
            );
          },
        });
      } catch (error) {
        // uploadStream aborted the upload: nothing of it is left in R2.
        if (marked) await clearPending(bucket, pending);
        throw error;
      }
      // Counted again: the check above ran on the listing before the upload.
      const recount = usage ? usageOf(part, admission.now) : undefined;
      await commit(part, keys, pending, meta!, admission, recount);
      return meta!;
    },

    async read(scope, ref, withBytes) {
      const part = await scopePart(scope);
      const stored = await kv.get<ArtifactMeta | { expired: true }>(refKey(prefix, part, ref), 'json');
      if (!stored) return null;
      if (isTombstone(stored)) return 'expired';
      if (!withBytes) return { meta: stored };
      const object = await bucket.get(artifactKeys(prefix, part, stored).object);
      return object ? { meta: stored, bytes: new Uint8Array(await object.arrayBuffer()) } : { meta: stored };
    },

    async readStream(scope, meta) {
      const object = await bucket.get(artifactKeys(prefix, await scopePart(scope), meta).object);
      return object ? verifyingStream(meta, object.body) : null;
    },

    async remove(scope, ref, expired) {
      const part = await scopePart(scope);
      const meta = await kv.get<ArtifactMeta | { expired: true }>(refKey(prefix, part, ref), 'json');
      if (!meta || isTombstone(meta)) return null;
      const keys = artifactKeys(prefix, part, meta);
      if (expired) return expireArtifact(kv, bucket, keys).then(() => meta);
      // R2 first: an interrupted delete leaves an index entry without bytes (cleaned up when met),
      // never bytes without an index that rebuildArtifactIndex would bring back.
      await bucket.delete(keys.object);
      await Promise.all([kv.delete(keys.ref), kv.delete(keys.listing)]);
      await release(part, ref);
      return meta;
    },

    // One KV list call a page, asked for exactly the number still wanted, so a page ends where
    // KV's cursor points; the position is that cursor and the last order key passed (KV cursors
    // are opaque: entries at or before it are dropped, so a page never repeats an earlier one).
    async list(scope, { after, limit }) {
      const position = after === undefined ? [] : positionOf(after);
      if (!position) return null;
      const part = await scopePart(scope);
      const start = listingPrefix(prefix, part);
      const [cursor, passed = ''] = position;
      const page = await kv.list<ListingMetadata>({
        prefix: start,
        limit: Math.min(1_000, limit),
        ...(cursor === undefined ? {} : { cursor }),
      });
      const metas: ArtifactMeta[] = [];
      let last = passed;
      for (const { name, metadata } of page.keys) {
        const order = name.slice(start.length);
        if (order <= last) continue;
        last = order;
        const meta = await metaOfListing(part, metadata ?? null, order.slice(order.indexOf('.') + 1));
        if (meta) metas.push(meta);
      }
      return page.list_complete ? { metas } : { metas, next: JSON.stringify([page.cursor, last]) };
    },
  };

  return createArtifactStore(driver, options);
}
