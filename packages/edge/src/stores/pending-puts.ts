import { type ArtifactMeta, ToolctxError } from '@toolctx/core';
import { isRef } from '@toolctx/core/ports';
import { type ArtifactKeys, artifactKeys, isTombstone } from './artifact-index.js';

/**
 * A put's mark in KV while it is under way, under `<prefix>pending/<scope part>/<ref>`: written
 * before its first byte reaches R2 (for a multipart upload, once R2 has named the upload, before
 * its first part) and deleted once its KV index is written or its bytes removed. A process killed
 * in between (a crash, an eviction, a deploy) leaves the mark, and with it the means to find and
 * remove what the put left in R2: an object nobody indexed, or a multipart upload left open,
 * which no R2 listing shows. {@link sweepAbandonedPuts} does that once the mark is old enough.
 */
export interface PendingPut {
  /** The artifact's createdAt: with the ref, it names the listing key. */
  createdAt: number;
  /** When the mark was written, by the store's clock. */
  startedAt: number;
  /** The multipart upload's id, for a streamed put larger than one part. */
  uploadId?: string;
}

export const pendingPrefix = (prefix: string): string => `${prefix}pending/`;
export const pendingKey = (prefix: string, part: string, ref: string): string =>
  `${pendingPrefix(prefix)}${part}/${ref}`;

/** Writes the mark; if KV refuses, nothing has reached R2 yet, and the error says so. */
export async function markPending(
  kv: KVNamespace,
  key: string,
  ref: string,
  mark: PendingPut,
): Promise<void> {
  try {
    // `startedAt` also in the key's metadata, so the sweep sees every mark's age in one list call.
    await kv.put(key, JSON.stringify(mark), { metadata: { startedAt: mark.startedAt } });
  } catch (cause) {
    throw new ToolctxError(
      'internal',
      `Recording artifact ${ref}'s put in KV failed before any byte reached R2, so nothing was stored. Retry the put.`,
      { retryable: true, cause },
    );
  }
}

/**
 * Deletes the mark once the put's outcome is settled: indexed, or its bytes removed. A delete that
 * fails leaves the mark for the sweep, which finds the artifact whole and keeps it.
 */
export async function clearPending(kv: KVNamespace, key: string): Promise<void> {
  await kv.delete(key).catch(() => {});
}

/** A put that finished: its ref key holds its meta and its listing key exists, or it has expired since. */
async function finished(kv: KVNamespace, keys: ArtifactKeys): Promise<boolean> {
  const stored = await kv.get<ArtifactMeta | { expired: true }>(keys.ref, 'json');
  if (isTombstone(stored)) return true;
  return stored !== null && (await kv.get(keys.listing)) !== null;
}

/**
 * Removes what abandoned puts left: for every mark at least `afterMs` old (by `now`, in the
 * store's clock), a put that did not finish has its multipart upload aborted, its R2 object
 * deleted and any half-written KV index deleted; a put that did finish (only its mark's delete
 * was lost) is kept. The mark goes last, so a sweep cut short is picked up by the next.
 * Answers how many unfinished puts it removed.
 */
export async function sweepAbandonedPuts(
  kv: KVNamespace,
  bucket: R2Bucket,
  prefix: string,
  now: number,
  afterMs: number,
): Promise<number> {
  const start = pendingPrefix(prefix);
  let removed = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await kv.list<{ startedAt: number }>(
      cursor === undefined ? { prefix: start } : { prefix: start, cursor },
    );
    for (const { name, metadata } of page.keys) {
      if (!metadata || now - metadata.startedAt < afterMs) continue;
      const rest = name.slice(start.length);
      const slash = rest.lastIndexOf('/');
      const ref = rest.slice(slash + 1);
      const mark = await kv.get<PendingPut>(name, 'json');
      if (slash < 0 || !isRef(ref) || !mark) continue;
      const keys = artifactKeys(prefix, rest.slice(0, slash), { ref, createdAt: mark.createdAt });
      if (!(await finished(kv, keys))) {
        // R2 first, as the store deletes. An abort that fails (an upload already completed or
        // aborted may refuse it) is not retried: R2's default lifecycle rule aborts uploads left
        // open seven days, so a failure here cannot keep parts for good.
        if (mark.uploadId)
          await bucket
            .resumeMultipartUpload(keys.object, mark.uploadId)
            .abort()
            .catch(() => {});
        await bucket.delete(keys.object);
        await Promise.all([kv.delete(keys.ref), kv.delete(keys.listing)]);
        removed += 1;
      }
      await kv.delete(name);
    }
    if (page.list_complete) return removed;
    cursor = page.cursor;
  }
}
