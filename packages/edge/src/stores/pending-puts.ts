import { type ArtifactMeta, ToolctxError } from '@toolctx/core';
import { isRef } from '@toolctx/core/ports';
import { type ArtifactKeys, artifactKeys, isTombstone } from './artifact-index.js';

/**
 * A put's mark while it is under way: an empty R2 object under `<prefix>.pending/<scope part>/<ref>`
 * (no scope part holds a `.`: scopeKey encodes it), written before the put's first byte reaches R2
 * (for a multipart upload, once R2 has named the upload, before its first part) and deleted once
 * its KV index is written or its bytes removed. A process killed in between (a crash, an eviction,
 * a deploy) leaves the mark, and with it the means to find and remove what the put left in R2: an
 * object nobody indexed, or a multipart upload left open, which no R2 listing shows.
 * {@link sweepAbandonedPuts} does that once the mark is old enough. The mark is in R2, not KV,
 * because KV refuses (429) a second write to a key within a second, and most puts delete their
 * mark sooner than that; R2 only refuses concurrent writes to one key, and its deletes are free.
 */
export interface PendingPut {
  /** The artifact's createdAt: with the ref, it names the listing key. */
  createdAt: number;
  /** When the mark was written, by the store's clock. */
  startedAt: number;
  /** The multipart upload's id, for a streamed put larger than one part. */
  uploadId?: string;
}

// The R2 custom metadata field that holds a mark.
const MARK_FIELD = 'toolctx-pending-put';

export const pendingPrefix = (prefix: string): string => `${prefix}.pending/`;
export const pendingKey = (prefix: string, part: string, ref: string): string =>
  `${pendingPrefix(prefix)}${part}/${ref}`;

/** Writes the mark; if R2 refuses, none of the put's bytes has reached R2 yet, and the error says so. */
export async function markPending(
  bucket: R2Bucket,
  key: string,
  ref: string,
  mark: PendingPut,
): Promise<void> {
  try {
    await bucket.put(key, new Uint8Array(0), { customMetadata: { [MARK_FIELD]: JSON.stringify(mark) } });
  } catch (cause) {
    throw new ToolctxError(
      'internal',
      `Marking artifact ${ref}'s put in R2 failed before any of its bytes were written, so nothing was stored. Retry the put.`,
      { retryable: true, cause },
    );
  }
}

/**
 * Deletes the mark once the put's outcome is settled: indexed, or its bytes removed. A delete that
 * fails leaves the mark for the sweep, which finds the artifact whole and keeps it.
 */
export async function clearPending(bucket: R2Bucket, key: string): Promise<void> {
  await bucket.delete(key).catch(() => {});
}

/** The mark an R2 object holds, or null when it holds none that parses. */
export function markOf(object: R2Object): PendingPut | null {
  const raw = object.customMetadata?.[MARK_FIELD];
  if (raw === undefined) return null;
  try {
    const mark = JSON.parse(raw) as Partial<PendingPut>;
    return typeof mark.createdAt === 'number' && typeof mark.startedAt === 'number'
      ? (mark as PendingPut)
      : null;
  } catch {
    return null;
  }
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
 * was lost) is kept. The mark goes last, so a sweep cut short is picked up by the next. Lists R2
 * 1,000 marks a call. Answers how many unfinished puts it removed.
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
  do {
    // `include` is honoured at every compatibility date since 2022-08-04 (artifact-objects.ts).
    const listing: R2ListOptions & { include: Array<'customMetadata'> } = {
      prefix: start,
      include: ['customMetadata'],
      ...(cursor ? { cursor } : {}),
    };
    const page = await bucket.list(listing);
    for (const object of page.objects) {
      const mark = markOf(object);
      const rest = object.key.slice(start.length);
      const slash = rest.lastIndexOf('/');
      const ref = rest.slice(slash + 1);
      if (!mark || slash < 0 || !isRef(ref) || now - mark.startedAt < afterMs) continue;
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
      await bucket.delete(object.key);
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return removed;
}
