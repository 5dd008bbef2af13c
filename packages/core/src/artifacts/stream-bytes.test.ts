import { describe, expect, it } from 'vitest';
import { readAllBytes, streamBytes } from './stream-bytes.js';

async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

// Bytes that differ from place to place, so a chunk out of order or repeated cannot compare equal.
const patterned = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 7 + (i >> 8)) % 256);

describe('streamBytes', () => {
  it('streams in chunks of 64 KiB (65,536 bytes) by default, the last one holding the rest', async () => {
    const bytes = patterned(200 * 1024);
    const chunks = await chunksOf(streamBytes(bytes));
    // 200 KiB = 3 × 65,536 + 8,192.
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([65_536, 65_536, 65_536, 8_192]);
    const joined = new Uint8Array(200 * 1024);
    let offset = 0;
    for (const chunk of chunks) {
      joined.set(chunk, offset);
      offset += chunk.byteLength;
    }
    // Compared by hand: toEqual on 200 KiB of bytes takes most of a second.
    expect(joined.findIndex((byte, i) => byte !== bytes[i])).toBe(-1);
  });

  it('streams exactly 64 KiB as one chunk, and one byte more as two', async () => {
    expect((await chunksOf(streamBytes(patterned(65_536)))).map((c) => c.byteLength)).toEqual([65_536]);
    expect((await chunksOf(streamBytes(patterned(65_537)))).map((c) => c.byteLength)).toEqual([65_536, 1]);
  });

  it('takes another chunk size, and reads back whole through readAllBytes', async () => {
    const bytes = patterned(10);
    expect((await chunksOf(streamBytes(bytes, 4))).map((c) => c.byteLength)).toEqual([4, 4, 2]);
    expect(await readAllBytes(streamBytes(bytes, 4))).toEqual(bytes);
  });

  it('gives no chunk for no bytes', async () => {
    expect(await chunksOf(streamBytes(new Uint8Array(0)))).toEqual([]);
  });
});
