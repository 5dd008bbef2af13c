import { describe, expect, it } from 'vitest';
import { readBoundedBody } from './read-body.js';

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('https://door.example/calls', { method: 'POST', body, headers });

describe('readBoundedBody', () => {
  it('reads a body within its declared length and the limit whole', async () => {
    const bytes = await readBoundedBody(post('{"a":1}', { 'content-length': '7' }), 100);
    expect(new TextDecoder().decode(bytes)).toBe('{"a":1}');
  });

  it('refuses a declared length over the limit before reading, and a chunked body once it passes the limit', async () => {
    expect(await readBoundedBody(post('x', { 'content-length': '101' }), 100)).toBeUndefined();
    const chunked = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(60)); // never ends: the read must stop at the limit
      },
    });
    expect(await readBoundedBody(post(chunked), 100)).toBeUndefined();
  });

  it('refuses a Request made in code that carries more than the limit whatever it declares', async () => {
    const request = post('x'.repeat(500), { 'content-length': '5' });
    expect(await readBoundedBody(request, 100)).toBeUndefined();
  });
});
