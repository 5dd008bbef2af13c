// Reading a request body whole, bounded in bytes and in time: the one reader every door uses.

/** How long reading a request body may take by default, in ms: a body still arriving then is a 408. */
export const defaultBodyTimeoutMs = 10_000;

/** A body that was still arriving when its time ran out (`timeoutMs`). */
export class BodyTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The body took longer than ${timeoutMs} ms to arrive.`);
    this.name = 'BodyTimeoutError';
  }
}

/**
 * A request body's bytes, or `undefined` when it is larger than `maxBytes`: a declared
 * `Content-Length` over the limit is refused before reading; a body within its declared length is
 * read in one step (the HTTP parser, workerd's or Node's, ends a body at its declared length); a
 * chunked body, which declares none, is counted while read, so no more than the limit is held.
 * A body still arriving after `timeoutMs` rejects with {@link BodyTimeoutError} (a chunked one is
 * cancelled), so a client that trickles its body holds the request no longer than that. Every
 * door that reads a body whole reads it through this.
 */
export function readBoundedBody(
  request: Request,
  maxBytes: number,
  timeoutMs = defaultBodyTimeoutMs,
): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return Promise.resolve(undefined);
  // A declared length is read without touching `request.body`: in workerd that getter makes a
  // stream object on every request, and a request without a body reads as no bytes anyway.
  // A Request made in code may still carry more than it declares: checked after the read.
  if (declared !== null && /^\d+$/.test(declared))
    return inTime(
      request
        .arrayBuffer()
        .then((buffer) => (buffer.byteLength > maxBytes ? undefined : new Uint8Array(buffer))),
      timeoutMs,
    );
  const body = request.body;
  if (!body) return Promise.resolve(new Uint8Array(0));
  const reader = body.getReader();
  return inTime(readCounted(reader, maxBytes), timeoutMs, () => reader.cancel().catch(() => {}));
}

/** `reading`, or a {@link BodyTimeoutError} once `timeoutMs` has passed (after `giveUp`). */
function inTime<T>(reading: Promise<T>, timeoutMs: number, giveUp?: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      giveUp?.();
      reject(new BodyTimeoutError(timeoutMs));
    }, timeoutMs);
  });
  return Promise.race([reading, late]).finally(() => clearTimeout(timer as ReturnType<typeof setTimeout>));
}

/** A chunked body, counted while read: no more than `maxBytes` is held. */
async function readCounted(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
