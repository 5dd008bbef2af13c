import { isArtifactExpired } from '@toolctx/core/ports';
import { artifactKeys, expireArtifact } from './artifact-index.js';
import { artifactObjects } from './artifact-objects.js';
import { sweepAbandonedPuts } from './pending-puts.js';

// A put whose mark is a day old is taken as abandoned: a put runs within one request or call.
const DAY_MS = 86_400_000;

/**
 * Options of {@link sweepExpiredArtifacts}: the same `kv`, `bucket` and `prefix` the store was
 * created with.
 */
export interface SweepExpiredArtifactsOptions {
  kv: KVNamespace;
  bucket: R2Bucket;
  /** `artifacts/` by default, as in `createKvR2ArtifactStore`. */
  prefix?: string;
  /** Epoch milliseconds; `Date.now()` by default. Artifacts expired by it are deleted. */
  now?: number;
  /**
   * How old (by `now`, in ms) the mark of a put that never finished must be before the sweep
   * removes what the put left in R2; a day by default. A put still under way that long would be
   * cut off, so keep it well above the longest put.
   */
  abandonedAfterMs?: number;
}

/**
 * What {@link sweepExpiredArtifacts} did: artifacts it looked at, expired ones it deleted, and
 * abandoned puts whose leftovers it removed.
 */
export interface SweepExpiredArtifactsReport {
  scanned: number;
  deleted: number;
  abandoned: number;
}

/**
 * Deletes every expired artifact of a `createKvR2ArtifactStore`, whether or not anyone touches
 * its scope again: its R2 object, its KV listing (so the scope's caps stop counting it) and its
 * ref key, which becomes a tombstone for a day. The store hides an expired artifact at once and
 * KV drops its keys by itself; this frees the R2 bytes. Run it from a Worker's `scheduled` handler
 * (a cron trigger). It reads the expiry from each object's meta copy, listing R2 1,000 objects a
 * call, so a run costs one R2 list operation per 1,000 artifacts. Safe to run while the store serves.
 *
 * It also removes what puts that never finished left behind: the store marks a put (an empty R2
 * object) before its first byte goes to R2 and unmarks it once the put is indexed, so a Worker killed in between
 * (a crash, an eviction, a deploy) leaves a mark. Once it is `abandonedAfterMs` old, the sweep
 * aborts the put's multipart upload, deletes its R2 object and any half-written KV index, and
 * drops the mark; a put that had finished keeps its artifact. Such a put was never listed or
 * readable: this frees its bytes, and afterwards every R2 object under the prefix is indexed in KV.
 *
 * @example
 * ```ts
 * import { createToolServer, type ExampleWorkerEnv, sweepExpiredArtifacts } from '@toolctx/edge';
 * declare const app: ReturnType<typeof createToolServer<ExampleWorkerEnv>>;
 * export default {
 *   fetch: app.fetch,
 *   scheduled: (_controller, env, ctx) =>
 *     ctx.waitUntil(sweepExpiredArtifacts({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS })),
 * } satisfies ExportedHandler<ExampleWorkerEnv>;
 * ```
 */
export async function sweepExpiredArtifacts(
  options: SweepExpiredArtifactsOptions,
): Promise<SweepExpiredArtifactsReport> {
  const { kv, bucket } = options;
  const prefix = options.prefix ?? 'artifacts/';
  const now = options.now ?? Date.now();
  const abandonedAfterMs = options.abandonedAfterMs ?? DAY_MS;
  if (!(abandonedAfterMs >= 0)) {
    throw new RangeError(`abandonedAfterMs must be a number of milliseconds ≥ 0, not ${abandonedAfterMs}.`);
  }
  // Abandoned puts first: an object they leave is not an artifact to count or expire.
  const abandoned = await sweepAbandonedPuts(kv, bucket, prefix, now, abandonedAfterMs);
  const report: SweepExpiredArtifactsReport = { scanned: 0, deleted: 0, abandoned };
  for await (const found of artifactObjects(bucket, prefix)) {
    if (!found) continue;
    report.scanned += 1;
    if (!isArtifactExpired(found.copy, now)) continue;
    await expireArtifact(kv, bucket, artifactKeys(prefix, found.part, found.copy));
    report.deleted += 1;
  }
  return report;
}
