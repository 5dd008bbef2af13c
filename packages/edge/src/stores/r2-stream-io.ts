import { type ArtifactMeta, ToolctxError } from '@toolctx/core';
import { toHex } from './artifact-index.js';

/**
 * R2 wants every multipart part but the last of one size, at least 5 MiB. A streamed artifact is
 * held at most one part at a time: smaller ones go up in one `put`, larger ones part by part.
 */
export const PART_BYTES = 5 * 1024 * 1024;

export interface StreamUpload {
  bucket: R2Bucket;
  key: string;
  stream: ReadableStream<Uint8Array>;
  contentType: string;
  /** Custom metadata known before the first byte (a multipart upload must name it up front). */
  earlyMetadata: Record<string, string>;
  /** Custom metadata once size and digest are known (used when the stream fits in one part). */
  finalMetadata: (bytes: number, digest: string) => Record<string, string>;
  /** Called with each running total; throws to refuse the stream (a cap was passed). */
  onProgress: (total: number) => void;
  /** Called with the final size and digest before the object is committed; throws to refuse it. */
  beforeCommit: (bytes: number, digest: string) => void;
  /**
   * Awaited before the first byte goes to R2: before the one `put`, or once a multipart upload
   * has its id and before its first part. Throws to stop the upload (which is then aborted).
   */
  beforeFirstWrite: (uploadId: string | undefined) => Promise<void>;
}

/**
 * Streams `stream` into R2 while hashing it with workerd's incremental `crypto.DigestStream`,
 * never holding more than one part in memory. Nothing is committed unless `beforeCommit` passes:
 * on any failure the multipart upload is aborted, so no object appears.
 */
export async function uploadStream(upload: StreamUpload): Promise<{ bytes: number; digest: string }> {
  const { bucket, key } = upload;
  if (!(upload.stream instanceof ReadableStream)) {
    throw new ToolctxError('invalid-argument', 'putStream needs "data" to be a ReadableStream<Uint8Array>.');
  }
  const reader = upload.stream.getReader();
  const hasher = new crypto.DigestStream('SHA-256');
  // Rejects when the writer is aborted; the abort is ours, so it is no news.
  hasher.digest.catch(() => {});
  const hashWriter = hasher.getWriter();
  const httpMetadata = { contentType: upload.contentType };
  let multipart: R2MultipartUpload | undefined;
  const parts: R2UploadedPart[] = [];
  let buffer = new Uint8Array(PART_BYTES);
  let fill = 0;
  let total = 0;
  let done = false;
  const flushPart = async (bytes: Uint8Array): Promise<void> => {
    if (!multipart) {
      multipart = await bucket.createMultipartUpload(key, {
        customMetadata: upload.earlyMetadata,
        httpMetadata,
      });
      await upload.beforeFirstWrite(multipart.uploadId);
    }
    parts.push(await multipart.uploadPart(parts.length + 1, bytes));
  };
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      const chunk = next.value;
      if (!(chunk instanceof Uint8Array))
        throw new ToolctxError('invalid-argument', 'A putStream stream must yield Uint8Array chunks.');
      total += chunk.byteLength;
      upload.onProgress(total);
      for (let offset = 0; offset < chunk.byteLength; ) {
        const taken = Math.min(PART_BYTES - fill, chunk.byteLength - offset);
        buffer.set(chunk.subarray(offset, offset + taken), fill);
        fill += taken;
        offset += taken;
        if (fill === PART_BYTES) {
          await flushPart(buffer);
          buffer = new Uint8Array(PART_BYTES);
          fill = 0;
        }
      }
      await hashWriter.write(chunk);
    }
    done = true;
    await hashWriter.close();
    const digest = toHex(await hasher.digest);
    upload.beforeCommit(total, digest);
    if (multipart) {
      if (fill > 0) await flushPart(buffer.subarray(0, fill));
      await multipart.complete(parts);
    } else {
      await upload.beforeFirstWrite(undefined);
      await bucket.put(key, buffer.subarray(0, fill), {
        customMetadata: upload.finalMetadata(total, digest),
        httpMetadata,
        sha256: digest,
      });
    }
    return { bytes: total, digest };
  } catch (error) {
    if (!done) await reader.cancel().catch(() => {});
    await hashWriter.abort().catch(() => {});
    await multipart?.abort().catch(() => {});
    throw error;
  }
}

/**
 * `body` passed through as is, hashed on the way: when the last byte has gone by and the bytes do
 * not match `meta` (size or digest), the stream errors with `integrity-failed`. So a reader that
 * reads to the end never takes corrupt bytes for good ones, and nothing is buffered.
 */
export function verifyingStream(
  meta: ArtifactMeta,
  body: ReadableStream<Uint8Array>,
): ReadableStream<Uint8Array> {
  const hasher = new crypto.DigestStream('SHA-256');
  hasher.digest.catch(() => {});
  const hashWriter = hasher.getWriter();
  let seen = 0;
  const check = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      seen += chunk.byteLength;
      controller.enqueue(chunk);
      await hashWriter.write(chunk);
    },
    async flush() {
      await hashWriter.close();
      const actual = toHex(await hasher.digest);
      if (seen !== meta.bytes || actual !== meta.digest) {
        throw new ToolctxError(
          'integrity-failed',
          `Artifact ${meta.ref} is corrupt: its stored bytes no longer match its digest. Put it again from the source.`,
          { details: { ref: meta.ref, expected: meta.digest, actual } },
        );
      }
    },
    async cancel() {
      await hashWriter.abort().catch(() => {});
    },
  });
  return body.pipeThrough(check);
}

/** The sha-256 of an R2 object, read as a stream (what `rebuildArtifactIndex` needs for streamed ones). */
export async function digestOfObject(bucket: R2Bucket, key: string): Promise<string | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const hasher = new crypto.DigestStream('SHA-256');
  await object.body.pipeTo(hasher);
  return toHex(await hasher.digest);
}
