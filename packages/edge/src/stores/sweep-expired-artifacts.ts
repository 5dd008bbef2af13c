import { isArtifactExpired } from '@toolctx/core/ports';
import { artifactKeys, expireArtifact } from './artifact-index.js';
import { artifactObjects } from './artifact-objects.js';

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
}

/** What {@link sweepExpiredArtifacts} did: artifacts it looked at, and expired ones it deleted. */
export interface SweepExpiredArtifactsReport {
  scanned: number;
  deleted: number;
}

/**
 * Deletes every expired artifact of a `createKvR2ArtifactStore`, whether or not anyone touches
 * its scope again: its R2 object, its KV listing (so the scope's caps stop counting it) and its
 * ref key, which becomes a tombstone for a day. The store hides an expired artifact at once and
 * KV drops its keys by itself; this frees the R2 bytes. Run it from a Worker's `scheduled` handler
 * (a cron trigger). It reads the expiry from each object's meta copy, listing R2 1,000 objects a
 * call, so a run costs one R2 list operation per 1,000 artifacts. Safe to run while the store serves.
 *
 * @example
 * ```ts
 * import { createToolServer, type Env, sweepExpiredArtifacts } from '@toolctx/edge';
 * declare const app: ReturnType<typeof createToolServer<Env>>;
 * export default {
 *   fetch: app.fetch,
 *   scheduled: (_controller, env, ctx) =>
 *     ctx.waitUntil(sweepExpiredArtifacts({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS })),
 * } satisfies ExportedHandler<Env>;
 * ```
 */
export async function sweepExpiredArtifacts(
  options: SweepExpiredArtifactsOptions,
): Promise<SweepExpiredArtifactsReport> {
  const { kv, bucket } = options;
  const prefix = options.prefix ?? 'artifacts/';
  const now = options.now ?? Date.now();
  const report: SweepExpiredArtifactsReport = { scanned: 0, deleted: 0 };
  for await (const found of artifactObjects(bucket, prefix)) {
    if (!found) continue;
    report.scanned += 1;
    if (!isArtifactExpired(found.copy, now)) continue;
    await expireArtifact(kv, bucket, artifactKeys(prefix, found.part, found.copy));
    report.deleted += 1;
  }
  return report;
}
