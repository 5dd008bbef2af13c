import { describe, expect, it, vi } from 'vitest';
import { defaultBodyTimeoutMs } from '../door/read-body.js';
import { HttpError } from './http-error.js';
import { readJson } from './read-json.js';

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('https://door.example/calls', { method: 'POST', body, headers });

describe('readJson: nesting depth', () => {
  // Every `[` and `{` outside a string is a level, counted over the whole body.
  const json = (body: string) => post(body, { 'content-type': 'application/json' });
  const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const objects = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
  const refusal = (body: string) =>
    readJson(json(body), 1024 * 1024).then(
      () => undefined,
      (error: unknown) => error,
    );

  it('takes exactly 64 levels, of arrays, objects or both', async () => {
    let value = (await readJson(json(arrays(64)), 1024 * 1024)) as unknown[];
    for (let level = 1; level < 64; level++) value = value[0] as unknown[];
    expect(value).toEqual([]);
    expect(await readJson(json(objects(64)), 1024 * 1024)).toBeTypeOf('object');
    expect(await readJson(json(`{"args":{"x":${arrays(62)}}}`), 1024 * 1024)).toBeTypeOf('object');
  });

  it('refuses 65 levels with a 400 naming the limit of 64', async () => {
    for (const body of [arrays(65), objects(65), `{"args":{"x":${arrays(63)}}}`]) {
      const error = await refusal(body);
      expect(error).toBeInstanceOf(HttpError);
      const { status, info } = error as HttpError;
      expect(status).toBe(400);
      expect(info).toMatchObject({ kind: 'bad-request', details: { maxDepth: 64 } });
      expect(info.message).toContain('deeper than 64 levels');
    }
  });

  it('does not count brackets inside strings', async () => {
    expect(await readJson(json(JSON.stringify({ text: '['.repeat(100) })), 1024 * 1024)).toEqual({
      text: '['.repeat(100),
    });
  });
});

describe('readJson: a body that trickles', () => {
  /** A body that sends its first byte, then nothing; `cancelled` says whether the reader gave up on it. */
  function trickle() {
    const state = { cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{'));
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { body, state };
  }
  const refusal = (request: Request, timeoutMs?: number) =>
    readJson(request, 1024 * 1024, false, timeoutMs).then(
      () => undefined,
      (error: unknown) => error as HttpError,
    ) as Promise<HttpError>;

  it('is cut after timeoutMs with a 408 naming the limit, and its stream cancelled', async () => {
    const { body, state } = trickle();
    const started = Date.now();
    const error = await refusal(post(body, { 'content-type': 'application/json' }), 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(408);
    expect(error.info).toEqual({
      kind: 'request-timeout',
      message:
        'The body did not arrive within 200 ms, the time this server gives a request body (bodyTimeoutMs); send it whole, at once.',
      retryable: false,
      details: { bodyTimeoutMs: 200 },
    });
    expect(state.cancelled).toBe(true);
  });

  it('is cut too when it declares a length it never sends', async () => {
    const { body } = trickle();
    const error = await refusal(
      post(body, { 'content-type': 'application/json', 'content-length': '100' }),
      200,
    );
    expect(error.status).toBe(408);
  });

  it('waits 10 s by default', async () => {
    expect(defaultBodyTimeoutMs).toBe(10_000);
    const { body } = trickle();
    vi.useFakeTimers();
    try {
      const pending = refusal(post(body, { 'content-type': 'application/json' }));
      await vi.advanceTimersByTimeAsync(9_999);
      let settled = false;
      void pending.then(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).info.details).toEqual({ bodyTimeoutMs: 10_000 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes a body that arrives within the time, however slowly it starts', async () => {
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        controller.enqueue(new TextEncoder().encode('{"a":1}'));
        controller.close();
      },
    });
    expect(await readJson(post(body, { 'content-type': 'application/json' }), 100, false, 1000)).toEqual({
      a: 1,
    });
  });
});
