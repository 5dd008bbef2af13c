import type { ArtifactMeta } from '@toolctx/core';
import { isArtifactExpired } from '@toolctx/core/ports';
import { artifactKeys, writeIndex } from './artifact-index.js';
import { artifactObjects } from './artifact-objects.js';
import { digestOfObject } from './r2-stream-io.js';

/**
 * Options of {@link rebuildArtifactIndex}: the same `kv`, `bucket`, `prefix` and `clock` the
 * store was created with.
 */
export interface RebuildArtifactIndexOptions {
  kv: KVNamespace;
  bucket: R2Bucket;
  /** `artifacts/` by default, as in `createKvR2ArtifactStore`. */
  prefix?: string;
  /** Epoch milliseconds; `Date.now` by default. Artifacts expired by it are deleted, not restored. */
  clock?: () => number;
}

/**
 * What {@link rebuildArtifactIndex} did: artifacts whose KV index it wrote, expired ones it
 * deleted from R2, and objects under the prefix that are not artifacts (left alone).
 */
export interface RebuildArtifactIndexReport {
  restored: number;
  expired: number;
  skipped: number;
}

/**
 * Restores the KV index of a `createKvR2ArtifactStore` from R2 alone, for when KV was lost or
 * emptied: every R2 object under the prefix carries a copy of its meta in `customMetadata`. A
 * streamed artifact's copy lacks the digest (R2 fixes a multipart upload's metadata before its
 * bytes exist), so that is recomputed by streaming the object once. Idempotent; safe to run while
 * the store serves (an artifact deleted meanwhile may come back only if its R2 delete failed).
 *
 * @example
 * ```ts
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * declare const env: ExampleWorkerEnv;
 * import { rebuildArtifactIndex } from '@toolctx/edge';
 * const report = await rebuildArtifactIndex({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS });
 * report.restored; // artifacts listed and readable again
 * ```
 */
export async function rebuildArtifactIndex(
  options: RebuildArtifactIndexOptions,
): Promise<RebuildArtifactIndexReport> {
  const { kv, bucket } = options;
  const prefix = options.prefix ?? 'artifacts/';
  const clock = options.clock ?? Date.now;
  const report: RebuildArtifactIndexReport = { restored: 0, expired: 0, skipped: 0 };
  for await (const found of artifactObjects(bucket, prefix)) {
    if (!found) {
      report.skipped += 1;
      continue;
    }
    const { key, part, copy } = found;
    if (isArtifactExpired(copy, clock())) {
      await bucket.delete(key);
      report.expired += 1;
      continue;
    }
    const digest = copy.digest ?? (await digestOfObject(bucket, key));
    if (digest === null) continue;
    const meta: ArtifactMeta = { ...copy, digest };
    await writeIndex(kv, artifactKeys(prefix, part, meta), meta);
    report.restored += 1;
  }
  return report;
}
