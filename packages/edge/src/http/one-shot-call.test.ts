import { createRuntime, type ToolEvent, type ToolResult } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { slowWait } from '../example/index.js';
import { createToolServer } from '../index.js';
import { authenticate, memoryServer, runtime } from '../test-utils/server.js';
import { allMessages, eventsOf, messagesUntil } from '../test-utils/sse.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function expectError(response: Response, status: number, kind: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/json');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ kind, retryable: expect.any(Boolean), message: expect.any(String) });
  return body;
}

describe('HTTP door: POST /calls, one call without a run', () => {
  it('answers the ToolResult as JSON, with the call id in a header, and starts no run', async () => {
    const { post, send } = memoryServer();
    const response = await post('/calls', { tool: 'count_steps', args: { steps: 2, delayMs: 0 } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('x-toolctx-call-id')).toMatch(/^call_/);
    expect(await json(response)).toMatchObject({ ok: true, value: { steps: 2 } });
    const named = await post('/calls', { tool: 'count_steps', args: { steps: 1 }, toolCallId: 'mine-1' });
    expect(named.headers.get('x-toolctx-call-id')).toBe('mine-1');
    expect(await json(named)).toMatchObject({ ok: true });
    // No run was started: the id a run route would need does not exist.
    expect((await send('/runs/mine-1/events')).status).toBe(404);
  });

  it('streams the JSON answer of a call that waits (heartbeats, then the result), so a hang-up is noticed', async () => {
    const { post } = memoryServer();
    const response = await post('/calls', { tool: 'slow_wait', args: { ms: 700 } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('identity');
    const text = await response.text();
    expect(text.startsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ ok: true, value: { waitedMs: expect.any(Number) } });
  });

  it('answers a failure as a ToolResult, not a 5xx, at once as a plain body', async () => {
    const { post } = memoryServer();
    const response = await post('/calls', { tool: 'always_fails', args: {} });
    expect(response.status).toBe(200);
    // A tool that waits on nothing is answered as a plain body, not the streamed one.
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await json(response)).toMatchObject({ ok: false, error: { kind: 'tool-error' } });
  });

  it('streams the call as SSE with Accept: text/event-stream: its events with no runId, then event: result', async () => {
    const { post } = memoryServer();
    const response = await post(
      '/calls',
      { tool: 'count_steps', args: { steps: 3, delayMs: 1 } },
      { headers: { accept: 'text/event-stream' } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const messages = await allMessages(response);
    const last = messages.at(-1)!;
    expect(last.event).toBe('result');
    expect(JSON.parse(last.data)).toMatchObject({ ok: true, value: { steps: 3 } });
    const events = eventsOf(messages);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('tool.started');
    expect(types.filter((type) => type === 'tool.progress')).toHaveLength(3);
    expect(types.at(-1)).toBe('tool.finished');
    expect(types).not.toContain('run.started');
    for (const event of events) expect((event as ToolEvent & { runId?: string }).runId).toBeUndefined();
  });

  it('a reader that hangs up an SSE call aborts the tool: tool.failed (aborted), long before it would end', async () => {
    const seen: ToolEvent[] = [];
    const runtime = createRuntime({ tools: [slowWait], sinks: [(event) => seen.push(event)] });
    const app = createToolServer({ runtimeFor: () => runtime, authenticate });
    const response = await app.request('/calls', {
      method: 'POST',
      headers: {
        authorization: 'Bearer ana',
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ tool: 'slow_wait', args: { ms: 20_000 }, toolCallId: 'hung-up' }),
    });
    const started = performance.now();
    await messagesUntil(response, (message) => message.event === 'tool.progress');
    for (let i = 0; i < 200 && !seen.some((event) => event.type === 'tool.failed'); i++) await pause(10);
    const end = seen.find((event) => event.callId === 'hung-up' && event.type === 'tool.failed');
    expect((end?.data as { error?: { kind?: string } } | undefined)?.error?.kind).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(end?.runId).toBeUndefined();
  });

  it('an aborted request signal aborts the call: the JSON answer is an aborted result', async () => {
    const { app } = memoryServer();
    const controller = new AbortController();
    const request = new Request('http://door.test/calls', {
      method: 'POST',
      headers: { authorization: 'Bearer ana', 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'slow_wait', args: { ms: 20_000 } }),
      signal: controller.signal,
    });
    const answered = app.fetch(request);
    setTimeout(() => controller.abort(), 50);
    const response = await answered;
    const result = JSON.parse(await response.text()) as ToolResult;
    expect(result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
  });

  it("artifacts a call saves are the caller's own: another identity cannot read or list them", async () => {
    const { post, send } = memoryServer();
    const saved = await json<{ ok: true; value: { ref: string } }>(
      await post('/calls', { tool: 'save_note', args: { text: 'only ana' } }),
    );
    const { ref } = saved.value;
    const own = await send(`/artifacts/${ref}`);
    expect(own.status).toBe(200);
    expect(await own.text()).toBe('only ana');
    const foreign = await send(`/artifacts/${ref}`, { as: 'bob' });
    expect(foreign.status).toBe(404);
    const listed = await json<{ artifacts: { ref: string }[] }>(await send('/artifacts', { as: 'bob' }));
    expect(listed.artifacts.map((artifact) => artifact.ref)).not.toContain(ref);
  });

  it('an unknown tool is a 404 naming the tools there are', async () => {
    const { post } = memoryServer();
    const body = await expectError(
      await post('/calls', { tool: 'delete_all', args: {} }),
      404,
      'unknown-tool',
    );
    expect(body.message).toContain('delete_all');
    expect((body.details as { available: string[] }).available).toContain('count_steps');
  });

  it('malformed JSON, a wrong shape and a body over the limit are 4xx with an ErrorInfo', async () => {
    const { send, post } = memoryServer({ maxBodyBytes: 100 });
    const malformed = await send('/calls', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"tool": "count_steps", "args": ',
    });
    await expectError(malformed, 400, 'bad-request');
    await expectError(await post('/calls', { tool: 'count_steps' }), 400, 'bad-request');
    await expectError(await post('/calls', [1]), 400, 'bad-request');
    const big = { tool: 'slow_wait', args: { ms: 1, pad: 'x'.repeat(200) } };
    const tooLarge = await expectError(await post('/calls', big), 413, 'payload-too-large');
    expect(tooLarge.details).toEqual({ maxBytes: 100 });
    const text = await send('/calls', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    await expectError(text, 415, 'unsupported-media-type');
  });

  it('refuses a caller without an identity with a 401, before reading the body', async () => {
    const { send } = memoryServer();
    const response = await send('/calls', {
      method: 'POST',
      headers: { authorization: 'Bearer eve', 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'count_steps', args: { steps: 1 } }),
    });
    await expectError(response, 401, 'unauthenticated');
  });

  it('a tool that needs approval answers approval-pending, naming POST /runs, with no approval id to resume', async () => {
    const { post } = memoryServer();
    const response = await post('/calls', { tool: 'publish_note', args: { title: 'Q3' } });
    expect(response.status).toBe(200);
    const result = await json<ToolResult>(response);
    if (result.ok) throw new Error('expected approval-pending');
    expect(result.error).toMatchObject({ kind: 'approval-pending', retryable: false });
    expect(result.error.message).toContain('POST /runs');
    expect(result.error.message).toMatch(/no run/);
    expect(result.error.details).toMatchObject({ toolName: 'publish_note' });
    expect(result.error.details).not.toHaveProperty('approvalId');
    expect(result.error.details).not.toHaveProperty('runId');
  });

  it('answers a preflight without a token and lets an allowed page read the answer and its call id (CORS)', async () => {
    const page = 'https://app.example.com';
    const app = createToolServer({ runtimeFor: () => runtime, authenticate, cors: { origins: [page] } });
    const preflight = await app.request('/calls', {
      method: 'OPTIONS',
      headers: {
        origin: page,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, accept',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(page);
    const response = await app.request('/calls', {
      method: 'POST',
      headers: { origin: page, authorization: 'Bearer ana', 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'count_steps', args: { steps: 1, delayMs: 0 } }),
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(page);
    expect(response.headers.get('access-control-expose-headers')).toContain('x-toolctx-call-id');
    expect(await json(response)).toMatchObject({ ok: true });
  });
});
