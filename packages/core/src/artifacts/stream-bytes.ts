import { ToolctxError } from '../errors.js';

/**
 * Reads a byte stream to the end into one Uint8Array. With `maxBytes`, stops (and cancels the
 * stream) as soon as more arrived, with a `quota-exceeded` error.
 *
 * @example
 * ```ts
 * import { readAllBytes } from '@toolctx/core/ports';
 * const bytes = await readAllBytes(new Blob(['hello']).stream());
 * ```
 */
export async function readAllBytes(
  stream: ReadableStream<Uint8Array>,
  maxBytes?: number,
): Promise<Uint8Array> {
  if (!(stream instanceof ReadableStream)) {
    throw new ToolctxError('invalid-argument', 'putStream needs "data" to be a ReadableStream<Uint8Array>.');
  }
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array)) {
      await reader.cancel();
      throw new ToolctxError('invalid-argument', 'A putStream stream must yield Uint8Array chunks.');
    }
    total += value.byteLength;
    if (maxBytes !== undefined && total > maxBytes) {
      await reader.cancel();
      throw new ToolctxError(
        'quota-exceeded',
        `The streamed artifact passed ${maxBytes} bytes, the limit per artifact. Nothing was stored; send less.`,
        { details: { limit: 'maxArtifactBytes', max: maxBytes } },
      );
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

/**
 * A stream of `bytes` in chunks of at most `chunkSize` (64 KiB by default).
 *
 * @example
 * ```ts
 * import { streamBytes } from '@toolctx/core/ports';
 * const body = streamBytes(new Uint8Array([1, 2, 3]));
 * ```
 */
export function streamBytes(bytes: Uint8Array, chunkSize = 65_536): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}
