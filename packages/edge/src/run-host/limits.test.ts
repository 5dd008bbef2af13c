import { env, exports } from 'cloudflare:workers';
import { type AnyTool, createRuntime, defineTool } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exampleTools } from '../example/index.js';
import { createMemoryRunDirectory, createToolServer } from '../index.js';
import { authenticate, memoryServer } from '../test-utils/server.js';
import { messagesUntil } from '../test-utils/sse.js';
import { tokenFor } from '../test-utils/worker.js';

type Send = (path: string, init?: RequestInit & { as?: string }) => Response | Promise<Response>;

/**
 * The Retry-After of each limit's 429, as the README promises: 1 s for calls and streams, 5 s for
 * pending approvals, 30 s for runs.
 */
const retryAfterOf: Record<string, string> = {
  maxCallsPerRun: '1',
  maxStreamsPerRun: '1',
  maxPendingApprovalsPerRun: '5',
  maxRunsPerIdentity: '30',
};

/** A 429 with its limit's Retry-After and an ErrorInfo that names the limit, its value and its option. */
async function expectLimit(response: Response, limit: number, option: string): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe(retryAfterOf[option]);
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

/** A door in memory over the example tools and `tools`, with `maxPendingApprovalsPerRun`, and a run of ana's. */
async function oneRunWith(tools: AnyTool[], maxPendingApprovalsPerRun: number) {
  const runtime = createRuntime({
    tools: [...exampleTools, ...tools],
    approval: { request: async () => 'pending' },
  });
  const runs = createMemoryRunDirectory({ runtime, maxPendingApprovalsPerRun });
  const app = createToolServer({ runtimeFor: () => runtime, runs, authenticate });
  const send: Send = (path, init = {}) =>
    app.request(path, { ...init, headers: { ...init.headers, authorization: 'Bearer ana' } });
  const started = await send('/runs', {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  const { runId } = (await started.json()) as { runId: string };
  return { send, runId };
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
    const { send, runId } = await oneRunWith([maybe], 1);
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

  it('pending approvals per run: a send tool counts as one that may ask (the lethal-trifecta rule may make it ask); a write tool does not', async () => {
    const notify = defineTool({
      name: 'notify',
      description: 'Sends a message out; never asks for approval itself.',
      inputSchema: z.object({ text: z.string() }),
      effect: 'send',
      execute: async ({ text }) => ({ sent: text }),
    });
    const record = defineTool({
      name: 'record',
      description: 'Writes a line; never asks for approval.',
      inputSchema: z.object({ text: z.string() }),
      effect: 'write',
      execute: async ({ text }) => ({ recorded: text }),
    });
    const { send, runId } = await oneRunWith([notify, record], 1);
    const use = (tool: string) =>
      send(`/runs/${runId}/calls`, {
        method: 'POST',
        body: JSON.stringify({ tool, args: { text: 'hi' } }),
        headers: { 'content-type': 'application/json' },
      });
    // Below the limit the send tool runs (the run is not tainted, so it does not ask).
    expect(await (await use('notify')).json()).toMatchObject({ ok: true, value: { sent: 'hi' } });
    await approvalIdOf(await askApproval(send, runId, 'a1'));
    // At the limit it is refused before it runs, as a tool that may ask; a write tool is not.
    await expectLimit(await use('notify'), 1, 'maxPendingApprovalsPerRun');
    expect(await (await use('record')).json()).toMatchObject({ ok: true, value: { recorded: 'hi' } });
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
async function send(path: string, init: RequestInit & { as?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${await tokenFor(init.as ?? 'limits-ana')}`);
  return exports.default.fetch(new Request(`http://toolctx.test${path}`, { ...init, headers }));
}
async function startRun(as = 'limits-ana'): Promise<Response> {
  return send('/runs', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' }, as });
}
const runIdOf = async (response: Response) => ((await response.json()) as { runId: string }).runId;

describe('limits, through the Worker and its Durable Objects (defaults)', () => {
  it('calls per run: 16 run at once, one more is a 429', async () => {
    const runId = await runIdOf(await startRun());
    const max = 16;
    const running = await Promise.all(Array.from({ length: max }, (_, i) => slowCall(send, runId, `c${i}`)));
    expect(running.map((r) => r.status)).toEqual(running.map(() => 200));
    await expectLimit(await slowCall(send, runId, 'one-more'), max, 'maxCallsPerRun');
    await send(`/runs/${runId}`, { method: 'DELETE' });
    for (const response of running) expect(await response.json()).toMatchObject({ ok: false });
  });

  it('streams per run: 8 readers at once, one more is a 429, a reader that leaves frees its slot', async () => {
    const runId = await runIdOf(await startRun());
    const max = 8;
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

  it('pending approvals per run: 16 wait at once, one more is a 429; deciding one frees its slot', async () => {
    const runId = await runIdOf(await startRun());
    const max = 16;
    const approvals: string[] = [];
    for (let i = 0; i < max; i++) approvals.push(await approvalIdOf(await askApproval(send, runId, `a${i}`)));
    await expectLimit(await askApproval(send, runId, 'one-more'), max, 'maxPendingApprovalsPerRun');
    expect((await quickCall(send, runId)).ok).toBe(true);
    expect(await decide(send, runId, approvals[0]!)).toMatchObject({ ok: true });
    await approvalIdOf(await askApproval(send, runId, 'after-decision'));
    await send(`/runs/${runId}`, { method: 'DELETE' });
  });

  it('runs per identity: 100 live runs, one more is a 429; others unaffected; DELETE and the idle alarm free a slot', async () => {
    const as = 'limits-many';
    const max = 100;
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
