import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createKvR2ArtifactStore } from './kv-r2-artifact-store.js';
import { PART_BYTES } from './r2-stream-io.js';

const TOTAL = 50 * 1024 * 1024;
const CHUNK = 64 * 1024;
const scope = { tenant: 'acme', principal: 'ada', conversation: 'big' };

const hex = (buffer: ArrayBuffer) =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Chunk `index` of the artifact, made on demand: the whole artifact never exists in memory here. */
const chunkAt = (index: number) => new Uint8Array(CHUNK).map((_, i) => (index * 31 + i) % 256);

/**
 * The real R2 binding, watched: counts the bytes the store hands to R2 (`put`, multipart parts)
 * and the bytes the store pulls out of R2 objects. Everything still goes to Miniflare's R2.
 */
function watchedBucket() {
  const seen = { uploaded: 0, largestWrite: 0, parts: 0, downloaded: 0 };
  const record = (value: unknown) => {
    const size = value instanceof Uint8Array ? value.byteLength : 0;
    seen.uploaded += size;
    seen.largestWrite = Math.max(seen.largestWrite, size);
  };
  const counting = () =>
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen.downloaded += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
  const bucket = new Proxy(env.ARTIFACTS, {
    get(target, name) {
      if (name === 'put') {
        return (key: string, value: Uint8Array, options?: R2PutOptions) => {
          record(value);
          return target.put(key, value, options);
        };
      }
      if (name === 'createMultipartUpload') {
        return async (key: string, options?: R2MultipartOptions) => {
          const upload = await target.createMultipartUpload(key, options);
          return {
            key: upload.key,
            uploadId: upload.uploadId,
            uploadPart: (number: number, value: Uint8Array) => {
              record(value);
              seen.parts += 1;
              return upload.uploadPart(number, value);
            },
            abort: () => upload.abort(),
            complete: (parts: R2UploadedPart[]) => upload.complete(parts),
          };
        };
      }
      if (name === 'get') {
        return async (key: string) => {
          const object = await target.get(key);
          if (!object) return null;
          const body = object.body.pipeThrough(counting());
          return new Proxy(object, {
            get: (inner, field) => (field === 'body' ? body : Reflect.get(inner, field)),
          });
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { bucket, seen };
}

describe('a 50 MiB artifact streams through workerd without being buffered whole', () => {
  it('putStream and getStream: size and digest match, R2 writes are one part at a time, reads are lazy', async () => {
    const { bucket, seen } = watchedBucket();
    const store = createKvR2ArtifactStore({
      kv: env.ARTIFACT_META,
      bucket,
      prefix: `big-${crypto.randomUUID()}/`,
    });

    // The source hashes each chunk as it makes it, and records how far it ran ahead of R2.
    const expected = new crypto.DigestStream('SHA-256');
    const expectedWriter = expected.getWriter();
    let produced = 0;
    let aheadOfR2 = 0;
    let index = 0;
    const source = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (produced === TOTAL) {
            await expectedWriter.close();
            controller.close();
            return;
          }
          await expectedWriter.write(chunkAt(index));
          controller.enqueue(chunkAt(index++));
          produced += CHUNK;
          aheadOfR2 = Math.max(aheadOfR2, produced - seen.uploaded);
        },
      },
      { highWaterMark: 0 },
    );
    const meta = await store.putStream!(scope, { kind: 'video', data: source, mediaType: 'video/mp4' });
    const digest = hex(await expected.digest);

    expect(meta.bytes).toBe(TOTAL);
    expect(meta.digest).toBe(digest);
    expect(seen.uploaded).toBe(TOTAL);
    // Never more than one part handed to R2 at once, and never more than a part (plus the chunk
    // in hand) read from the source and not yet in R2: the store held at most one part.
    expect(seen.parts).toBe(TOTAL / PART_BYTES);
    expect(seen.largestWrite).toBe(PART_BYTES);
    expect(aheadOfR2).toBeLessThanOrEqual(PART_BYTES + CHUNK);

    const streamed = await store.getStream!(scope, meta.ref);
    expect(streamed?.meta).toEqual(meta);
    const reader = streamed!.body.getReader();
    const first = await reader.read();
    // After the first chunk, only a small part of the object has been pulled from R2.
    expect(first.value!.byteLength).toBeGreaterThan(0);
    expect(seen.downloaded).toBeLessThan(TOTAL / 4);
    const actual = new crypto.DigestStream('SHA-256');
    const actualWriter = actual.getWriter();
    let received = first.value!.byteLength;
    let largestRead = received;
    await actualWriter.write(first.value!);
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      received += next.value.byteLength;
      largestRead = Math.max(largestRead, next.value.byteLength);
      await actualWriter.write(next.value);
    }
    await actualWriter.close();
    expect(received).toBe(TOTAL);
    expect(hex(await actual.digest)).toBe(digest);
    expect(largestRead).toBeLessThan(TOTAL / 4);
    expect(seen.downloaded).toBe(TOTAL);
    expect(await store.delete(scope, meta.ref)).toBe(true);
  }, 180_000);
});
