import { env, exports } from 'cloudflare:workers';
import { createRuntime, defineTool } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exampleTools } from '../example/index.js';
import { createMemoryRunDirectory, createToolServer } from '../index.js';
import { authenticate, memoryServer } from '../test-utils/server.js';
import { messagesUntil } from '../test-utils/sse.js';
import { defaultLimits } from './limits.js';

type Send = (path: string, init?: RequestInit & { as?: string }) => Response | Promise<Response>;

/** A 429 with Retry-After and an ErrorInfo that names the limit, its value and its option. */
async function expectLimit(response: Response, limit: number, option: string): Promise<void> {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = (await response.json()) as {
    kind: string;
    message: string;
    retryable: boolean;
    details: unknown;
  };
  expect(body).toMatchObject({ kind: 'limit-exceeded', retryable: true, details: { limit, option } });
  expect(body.message).toContain(String(limit));
  expect(body.message).toContain(option);
}

const slowCall = async (send: Send, runId: string, toolCallId: string, accept = 'application/json') =>
  send(`/runs/${runId}/calls`, {
    method: 'POST',
    body: JSON.stringify({ tool: 'slow_wait', args: { ms: 60_000 }, toolCallId }),
    headers: { 'content-type': 'application/json', accept },
  });
const quickCall = async (send: Send, runId: string, as?: string) => {
  const response = await send(`/runs/${runId}/calls`, {
    method: 'POST',
    body: JSON.stringify({ tool: 'count_steps', args: { steps: 1, delayMs: 0 } }),
    headers: { 'content-type': 'application/json' },
    ...(as ? { as } : {}),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { ok: boolean };
};
const cancel = async (send: Send, runId: string, callId: string) =>
  (await send(`/runs/${runId}/calls/${callId}/cancel`, { method: 'POST' })).json();
/** Calls `publish_note`, which asks for approval: the answer is the pending result (or the refusal). */
const askApproval = async (send: Send, runId: string, toolCallId: string) =>
  send(`/runs/${runId}/calls`, {
    method: 'POST',
    body: JSON.stringify({ tool: 'publish_note', args: { title: toolCallId }, toolCallId }),
    headers: { 'content-type': 'application/json' },
  });
const approvalIdOf = async (response: Response) => {
  expect(response.status).toBe(200);
  const result = (await response.json()) as {
    ok: boolean;
    error?: { kind: string; details?: { approvalId?: string } };
  };
  expect(result).toMatchObject({ ok: false, error: { kind: 'approval-pending' } });
  return String(result.error?.details?.approvalId);
};
const decide = async (send: Send, runId: string, approvalId: string) =>
  (
    await send(`/approvals/${approvalId}`, {
      method: 'POST',
      body: JSON.stringify({ runId, approved: true }),
      headers: { 'content-type': 'application/json' },
    })
  ).json();

/** Polls `open` until it answers `status` (a slot came back), for at most `ms`. */
async function eventually(
  open: () => Response | Promise<Response>,
  status = 200,
  ms = 3000,
): Promise<Response> {
  const deadline = Date.now() + ms;
  while (true) {
    const response = await open();
    if (response.status === status || Date.now() > deadline) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('limits, with runs in memory', () => {
  it('calls per run: one past the limit is a 429; other runs and calls within it carry on; a finished call frees its slot', async () => {
    const { send, startRun } = memoryServer({ maxCallsPerRun: 2 });
    const runId = await startRun();
    const first = await slowCall(send, runId, 'c1');
    const second = await slowCall(send, runId, 'c2', 'text/event-stream');
    expect([first.status, second.status]).toEqual([200, 200]);
    await expectLimit(await slowCall(send, runId, 'c3'), 2, 'maxCallsPerRun');
    expect((await quickCall(send, await startRun())).ok).toBe(true);
    await cancel(send, runId, 'c1');
    expect(await first.json()).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect((await quickCall(send, runId)).ok).toBe(true);
    await cancel(send, runId, 'c2');
    await second.text();
  });

  it('streams per run: event streams and SSE calls share the limit; JSON calls and other runs are not streams', async () => {
    const { send, startRun } = memoryServer({ maxStreamsPerRun: 2 });
    const runId = await startRun();
    const reader = await send(`/runs/${runId}/events`);
    const sse = await slowCall(send, runId, 'sse', 'text/event-stream');
    expect([reader.status, sse.status]).toEqual([200, 200]);
    await expectLimit(await send(`/runs/${runId}/events`), 2, 'maxStreamsPerRun');
    await expectLimit(await slowCall(send, runId, 'sse2', 'text/event-stream'), 2, 'maxStreamsPerRun');
    expect((await quickCall(send, runId)).ok).toBe(true);
    const other = await send(`/runs/${await startRun()}/events`);
    expect(other.status).toBe(200);
    await other.body?.cancel();
    // A reader that leaves frees its slot.
    await reader.body?.cancel();
    const again = await eventually(() => send(`/runs/${runId}/events`));
    expect(again.status).toBe(200);
    await again.body?.cancel();
    await cancel(send, runId, 'sse');
    await sse.text();
  });

  it('pending approvals per run: one more call that may ask is a 429; other tools, runs and decisions carry on; deciding or cancelling frees a slot', async () => {
    const { send, startRun } = memoryServer({ maxPendingApprovalsPerRun: 2 });
    const runId = await startRun();
    const first = await approvalIdOf(await askApproval(send, runId, 'a1'));
    await approvalIdOf(await askApproval(send, runId, 'a2'));
    await expectLimit(await askApproval(send, runId, 'a3'), 2, 'maxPendingApprovalsPerRun');
    expect((await quickCall(send, runId)).ok).toBe(true);
    await approvalIdOf(await askApproval(send, await startRun(), 'elsewhere'));
    // A decision is not a new approval: it is admitted, and frees its slot.
    expect(await decide(send, runId, first)).toMatchObject({ ok: true });
    await approvalIdOf(await askApproval(send, runId, 'a4'));
    await expectLimit(await askApproval(send, runId, 'a5'), 2, 'maxPendingApprovalsPerRun');
    // Cancelling a call that waits takes its approval out of the store: a slot again.
    expect(await cancel(send, runId, 'a2')).toMatchObject({ cancelled: true });
    await approvalIdOf(await askApproval(send, runId, 'a6'));
  });

  it('pending approvals per run: a tool whose needsApproval is a predicate counts as one that may ask', async () => {
    const maybe = defineTool({
      name: 'maybe_ask',
      description: 'Asks for approval only for big amounts.',
      inputSchema: z.object({ amount: z.number() }),
      needsApproval: ({ amount }) => amount > 100,
      execute: async ({ amount }) => ({ amount }),
    });
    const runtime = createRuntime({
      tools: [...exampleTools, maybe],
      approval: { request: async () => 'pending' },
    });
    const runs = createMemoryRunDirectory({ runtime, maxPendingApprovalsPerRun: 1 });
    const app = createToolServer({ runtimeFor: () => runtime, runs, authenticate });
    const send: Send = (path, init = {}) =>
      app.request(path, { ...init, headers: { ...init.headers, authorization: 'Bearer ana' } });
    const started = await send('/runs', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    const { runId } = (await started.json()) as { runId: string };
    const small = (amount: number) =>
      send(`/runs/${runId}/calls`, {
        method: 'POST',
        body: JSON.stringify({ tool: 'maybe_ask', args: { amount } }),
        headers: { 'content-type': 'application/json' },
      });
    expect(await (await small(5)).json()).toMatchObject({ ok: true });
    await approvalIdOf(await askApproval(send, runId, 'a1'));
    // The predicate would say no for 5, but admission cannot know before it runs: refused.
    await expectLimit(await small(5), 1, 'maxPendingApprovalsPerRun');
    expect((await quickCall(send, runId)).ok).toBe(true);
  });

  it('runs per identity: one past the limit is a 429; another identity is not affected; ending a run frees its slot', async () => {
    const { send, startRun } = memoryServer({ maxRunsPerIdentity: 2 });
    const runs = [await startRun(), await startRun()];
    await expectLimit(
      await send('/runs', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }),
      2,
      'maxRunsPerIdentity',
    );
    expect(await startRun('bob')).toMatch(/^run_/);
    expect((await quickCall(send, runs[0]!)).ok).toBe(true);
    await send(`/runs/${runs[0]}`, { method: 'DELETE' });
    expect(await startRun()).toMatch(/^run_/);
  });
});

// Through the deployable Worker (src/worker.ts): a Durable Object per run and one per identity,
// with the default limits.
function send(path: string, init: RequestInit & { as?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', 'Bearer test-token');
  headers.set('x-toolctx-principal', init.as ?? 'limits-ana');
  return exports.default.fetch(new Request(`http://toolctx.test${path}`, { ...init, headers }));
}
async function startRun(as = 'limits-ana'): Promise<Response> {
  return send('/runs', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' }, as });
}
const runIdOf = async (response: Response) => ((await response.json()) as { runId: string }).runId;

describe('limits, through the Worker and its Durable Objects (defaults)', () => {
  it(`calls per run: ${defaultLimits.maxCallsPerRun} run at once, one more is a 429`, async () => {
    const runId = await runIdOf(await startRun());
    const max = defaultLimits.maxCallsPerRun;
    const running = await Promise.all(Array.from({ length: max }, (_, i) => slowCall(send, runId, `c${i}`)));
    expect(running.map((r) => r.status)).toEqual(running.map(() => 200));
    await expectLimit(await slowCall(send, runId, 'one-more'), max, 'maxCallsPerRun');
    await send(`/runs/${runId}`, { method: 'DELETE' });
    for (const response of running) expect(await response.json()).toMatchObject({ ok: false });
  });

  it(`streams per run: ${defaultLimits.maxStreamsPerRun} readers at once, one more is a 429, a reader that leaves frees its slot`, async () => {
    const runId = await runIdOf(await startRun());
    const max = defaultLimits.maxStreamsPerRun;
    const readers = await Promise.all(Array.from({ length: max }, () => send(`/runs/${runId}/events`)));
    expect(readers.map((r) => r.status)).toEqual(readers.map(() => 200));
    await expectLimit(await send(`/runs/${runId}/events`), max, 'maxStreamsPerRun');
    await readers[0]!.body?.cancel();
    const again = await eventually(() => send(`/runs/${runId}/events`));
    expect(again.status).toBe(200);
    await messagesUntil(again, (m) => m.event === 'run.started');
    // Every reader gets every event (each event is encoded once and the same bytes go to all).
    await quickCall(send, runId);
    for (const reader of readers.slice(1)) {
      const messages = await messagesUntil(reader, (m) => m.event === 'tool.finished');
      expect(messages.map((m) => m.event)).toEqual([
        'run.started',
        'tool.started',
        'tool.progress',
        'tool.finished',
      ]);
    }
  });

  it(`pending approvals per run: ${defaultLimits.maxPendingApprovalsPerRun} wait at once, one more is a 429; deciding one frees its slot`, async () => {
    const runId = await runIdOf(await startRun());
    const max = defaultLimits.maxPendingApprovalsPerRun;
    const approvals: string[] = [];
    for (let i = 0; i < max; i++) approvals.push(await approvalIdOf(await askApproval(send, runId, `a${i}`)));
    await expectLimit(await askApproval(send, runId, 'one-more'), max, 'maxPendingApprovalsPerRun');
    expect((await quickCall(send, runId)).ok).toBe(true);
    expect(await decide(send, runId, approvals[0]!)).toMatchObject({ ok: true });
    await approvalIdOf(await askApproval(send, runId, 'after-decision'));
    await send(`/runs/${runId}`, { method: 'DELETE' });
  });

  it(`runs per identity: ${defaultLimits.maxRunsPerIdentity} live runs, one more is a 429; others unaffected; DELETE and the idle alarm free a slot`, async () => {
    const as = 'limits-many';
    const max = defaultLimits.maxRunsPerIdentity;
    const runs: string[] = [];
    for (let i = 0; i < max; i++) {
      const response = await startRun(as);
      expect(response.status).toBe(201);
      runs.push(await runIdOf(response));
    }
    await expectLimit(await startRun(as), max, 'maxRunsPerIdentity');
    expect((await startRun('limits-other')).status).toBe(201);
    await send(`/runs/${runs[0]}`, { method: 'DELETE', as });
    const after = await startRun(as);
    expect(after.status).toBe(201);
    await after.body?.cancel();
    await expectLimit(await startRun(as), max, 'maxRunsPerIdentity');
    // A run the idle alarm ends frees its slot too.
    const { runDurableObjectAlarm } = await import('cloudflare:test');
    expect(await runDurableObjectAlarm(env.RUNS.get(env.RUNS.idFromName(runs[1]!)))).toBe(true);
    const byAlarm = await eventually(() => startRun(as), 201);
    expect(byAlarm.status).toBe(201);
  });
});
