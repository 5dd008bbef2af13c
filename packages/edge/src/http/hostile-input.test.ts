import { env } from 'cloudflare:workers';
import type { Identity } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import {
  createMemoryRunDirectory,
  createToolServer,
  durableObjectRuns,
  type RunDirectory,
} from '../index.js';
import { memoryServer, runtime } from '../test-utils/server.js';

async function expectError(response: Response, status: number, kind: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ kind, retryable: expect.any(Boolean), message: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/\bat .*:\d+:\d+/); // never a stack
  return body;
}

describe('HTTP door: hostile input is a 4xx with an ErrorInfo', () => {
  it('malformed JSON is 400 bad-request', async () => {
    const { send, startRun } = memoryServer();
    const runId = await startRun();
    const response = await send(`/runs/${runId}/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"tool": "count_steps", "args": ',
    });
    await expectError(response, 400, 'bad-request');
  });

  it('wrong types are 400: a non-object body, a numeric tool, a missing args, a bad phase', async () => {
    const { post, startRun } = memoryServer();
    const runId = await startRun();
    for (const body of [
      [1, 2],
      'text',
      { tool: 5, args: {} },
      { tool: 'count_steps' },
      { tool: 'x', args: {}, toolCallId: 'a b' },
    ]) {
      await expectError(await post(`/runs/${runId}/calls`, body), 400, 'bad-request');
    }
    await expectError(await post('/runs', { phase: 'later' }), 400, 'bad-request');
    await expectError(await post('/runs', { state: [1] }), 400, 'bad-request');
    await expectError(await post('/runs', { sessionId: 42 }), 400, 'bad-request');
  });

  it('a body over the limit is 413, by its Content-Length and while reading one without', async () => {
    const { app, post, startRun } = memoryServer({ maxBodyBytes: 100 });
    const runId = await startRun();
    const big = { tool: 'slow_wait', args: { ms: 1, pad: 'x'.repeat(200) } };
    const declared = await expectError(await post(`/runs/${runId}/calls`, big), 413, 'payload-too-large');
    expect(declared.details).toEqual({ maxBytes: 100 });
    // A streamed body has no Content-Length: the bytes are counted as they arrive.
    const chunks = new TextEncoder().encode(JSON.stringify(big));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < chunks.length; i += 16) controller.enqueue(chunks.slice(i, i + 16));
        controller.close();
      },
    });
    const streamed = new Request(`http://door.test/runs/${runId}/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ana' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.headers.get('content-length')).toBeNull();
    await expectError(await app.request(streamed), 413, 'payload-too-large');
  });

  it('with the default limit a body of exactly 1 MiB (1 048 576 bytes) is taken, one byte more is 413, declared or streamed', async () => {
    const { app, startRun } = memoryServer();
    const runId = await startRun();
    const head = '{"tool":"count_steps","args":{"steps":1,"delayMs":0,"pad":"';
    const body = (bytes: number) => `${head}${'x'.repeat(bytes - head.length - 3)}"}}`;
    const declared = (text: string) =>
      app.request(`/runs/${runId}/calls`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(text.length),
          authorization: 'Bearer ana',
        },
        body: text,
      });
    const streamed = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.slice(i, i + 64 * 1024));
          controller.close();
        },
      });
      return app.request(
        new Request(`http://door.test/runs/${runId}/calls`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer ana' },
          body: stream,
          duplex: 'half',
        } as RequestInit),
      );
    };
    expect(new TextEncoder().encode(body(1_048_576)).byteLength).toBe(1_048_576);
    for (const send of [declared, streamed]) {
      const taken = await send(body(1_048_576));
      expect(taken.status).toBe(200);
      expect(await taken.json()).toMatchObject({ ok: true, value: { steps: 1 } });
      const refused = await expectError(await send(body(1_048_577)), 413, 'payload-too-large');
      expect(refused.details).toEqual({ maxBytes: 1_048_576 });
    }
  });

  it('a body that is not JSON by its content type is 415', async () => {
    const { send, startRun } = memoryServer();
    const runId = await startRun();
    const response = await send(`/runs/${runId}/calls`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"tool":"count_steps","args":{"steps":1}}',
    });
    await expectError(response, 415, 'unsupported-media-type');
  });

  it('an unknown tool is 404 and lists the tool names', async () => {
    const { post, startRun } = memoryServer();
    const runId = await startRun();
    const body = await expectError(
      await post(`/runs/${runId}/calls`, { tool: 'rm_rf', args: {} }),
      404,
      'unknown-tool',
    );
    expect(body.details).toEqual({
      available: [
        'count_steps',
        'always_fails',
        'slow_wait',
        'save_note',
        'publish_note',
        'save_generated',
        'schedule_meeting',
        'connect_calendar',
      ],
    });
    expect(body.message).toContain(
      'count_steps, always_fails, slow_wait, save_note, publish_note, save_generated, schedule_meeting, connect_calendar',
    );
  });

  it('an unknown run is 404, and another identity’s run is the same 404', async () => {
    const { send, post, startRun } = memoryServer();
    await expectError(
      await post('/runs/run_nope/calls', { tool: 'count_steps', args: { steps: 1 } }),
      404,
      'not-found',
    );
    const runId = await startRun('ana');
    const asBob = { as: 'bob' };
    const call = await expectError(
      await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1 } }, asBob),
      404,
      'not-found',
    );
    expect(call.message).toBe('There is no such run for this identity.');
    await expectError(await send(`/runs/${runId}/events`, asBob), 404, 'not-found');
    await expectError(await post(`/runs/${runId}/calls/c/cancel`, {}, asBob), 404, 'not-found');
    await expectError(await send(`/runs/${runId}`, { method: 'DELETE', ...asBob }), 404, 'not-found');
    // Bob's attempt to end it did nothing: ana's run still works.
    const mine = await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1, delayMs: 0 } });
    expect(await mine.json()).toMatchObject({ ok: true });
  });

  it.each([
    ['in memory', (): RunDirectory => createMemoryRunDirectory({ runtime })],
    ['in Durable Objects', (): RunDirectory => durableObjectRuns(env.RUNS)],
  ])(
    '%s: an identity that differs only in tenant, or only in conversation, gets the same 404 as a stranger',
    async (_where, runsOf) => {
      // Bearer tokens name identities that differ from the owner in one part each.
      const owner: Identity = { tenant: 'acme', principal: 'ana', conversationId: 'conv-1' };
      const identities: Record<string, Identity> = {
        owner,
        'other-tenant': { ...owner, tenant: 'globex' },
        'other-conversation': { ...owner, conversationId: 'conv-2' },
        'no-conversation': { tenant: 'acme', principal: 'ana' },
        stranger: { ...owner, principal: 'bob' },
      };
      const app = createToolServer({
        runtimeFor: () => runtime,
        runs: runsOf(),
        authenticate: (request) =>
          identities[(request.headers.get('authorization') ?? '').replace(/^Bearer /, '')] ?? null,
      });
      const send = (path: string, as: string, init: RequestInit = {}) =>
        app.request(path, {
          ...init,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${as}` },
        });
      const started = await send('/runs', 'owner', { method: 'POST', body: '{}' });
      expect(started.status).toBe(201);
      const { runId } = (await started.json()) as { runId: string };
      // Where POST /runs said the run is, its owner reads what it is.
      const location = started.headers.get('location')!;
      const info = await send(location, 'owner');
      expect([info.status, info.headers.get('content-type')]).toEqual([200, 'application/json']);
      expect(await info.json()).toEqual({ runId, phase: 'act', ended: false, lastSeq: 1 });
      const call = JSON.stringify({ tool: 'count_steps', args: { steps: 1, delayMs: 0 } });
      const attempts = async (as: string) => {
        const answers: unknown[] = [];
        for (const response of [
          await send(`/runs/${runId}`, as),
          await send(`/runs/${runId}/events`, as),
          await send(`/runs/${runId}/calls`, as, { method: 'POST', body: call }),
          await send(`/runs/${runId}/calls/c1/cancel`, as, { method: 'POST', body: '{}' }),
          await send(`/runs/${runId}`, as, { method: 'DELETE' }),
        ])
          answers.push({ status: response.status, body: await response.json() });
        return answers;
      };
      const stranger = await attempts('stranger');
      expect(stranger).toEqual(
        Array(5).fill({
          status: 404,
          body: { kind: 'not-found', message: 'There is no such run for this identity.', retryable: false },
        }),
      );
      for (const as of ['other-tenant', 'other-conversation', 'no-conversation'])
        expect(await attempts(as), as).toEqual(stranger);
      // None of them ended it or called in it: the owner's run carries on, then the owner ends it.
      const mine = await send(`/runs/${runId}/calls`, 'owner', { method: 'POST', body: call });
      expect(await mine.json()).toMatchObject({ ok: true, value: { steps: 1 } });
      const events = await send(`/runs/${runId}/events`, 'owner');
      expect(events.status).toBe(200);
      await events.body?.cancel();
      const ended = await send(`/runs/${runId}`, 'owner', { method: 'DELETE' });
      expect(ended.status).toBe(200);
      expect(await ended.json()).toMatchObject({ runId, ended: true });
      expect(await (await send(`/runs/${runId}`, 'owner')).json()).toMatchObject({ runId, ended: true });
    },
  );

  it('a path id with odd characters is 400, an unknown route is a 404 ErrorInfo', async () => {
    const { send } = memoryServer();
    await expectError(await send(`/runs/${'x'.repeat(200)}/events`), 400, 'bad-request');
    await expectError(await send('/nowhere'), 404, 'not-found');
  });

  it('a failure inside the server is a 500 with only the exception class', async () => {
    const { createToolServer } = await import('../index.js');
    const { runtime } = await import('../test-utils/server.js');
    const app = createToolServer({
      runtimeFor: () => runtime,
      authenticate: () => {
        throw new TypeError('secret detail');
      },
    });
    const response = await app.request('/tools');
    const body = await expectError(response, 500, 'internal');
    expect(body.exception).toBe('TypeError');
    expect(JSON.stringify(body)).not.toContain('secret');
  });
});
