import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import type { CallHandle, OpenAsk, ToolEvent } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { allMessages, eventsOf } from '../test-utils/sse.js';
import { hostOf, post, send, startRun } from '../test-utils/worker.js';

// A call that asks its user (`ctx.ask`), over HTTP in the run's Durable Object: the handle shows
// the ask, GET /runs/:runId/asks lists it, POST /runs/:runId/asks/:askId answers it — checked by
// core, taken once, the owner's alone — and an open ask outlives the object's restart.

const asksOf = async (runId: string, as = 'ana') => {
  const response = await send(`/runs/${runId}/asks`, { as });
  return { status: response.status, body: (await response.json()) as { asks: OpenAsk[]; kind?: string } };
};

/** Polls until the run has an open ask, and answers it. */
async function openAsk(runId: string): Promise<OpenAsk> {
  for (let i = 0; i < 300; i++) {
    const { body } = await asksOf(runId);
    if (body.asks?.length) return body.asks[0]!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no ask came');
}

async function handleWhen(runId: string, callId: string, done: (handle: CallHandle) => boolean) {
  for (let i = 0; i < 300; i++) {
    const handle = (await (await send(`/runs/${runId}/calls/${callId}`)).json()) as CallHandle;
    if (done(handle)) return handle;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`call ${callId} never reached the state asked for`);
}

const meeting = (toolCallId: string) => ({
  tool: 'schedule_meeting',
  args: { topic: 'the plan' },
  toolCallId,
});
const answer = (runId: string, askId: string, body: unknown, as = 'ana') =>
  post(`/runs/${runId}/asks/${askId}`, body, { as });

describe('asks over HTTP', () => {
  it('the call’s stream carries the ask, its handle shows it, and an answer lets the call go on', async () => {
    const runId = await startRun();
    const response = await post(`/runs/${runId}/calls`, meeting('m1'), {
      headers: { accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    const reading = allMessages(response);
    const ask = await openAsk(runId);
    expect(ask).toMatchObject({
      toolCallId: 'm1',
      tool: 'schedule_meeting',
      message: 'When should we meet about “the plan”?',
      schema: { required: ['day', 'minutes'] },
    });
    const handle = await handleWhen(runId, 'm1', (h) => h.status === 'input_required');
    expect(handle.ask).toEqual(ask);
    const taken = await answer(runId, ask.askId, {
      action: 'accept',
      values: { day: 'Tuesday', minutes: 45 },
    });
    expect(taken.status).toBe(200);
    expect(await taken.json()).toEqual({ askId: ask.askId, toolCallId: 'm1', taken: true });
    const messages = await reading;
    const events = eventsOf(messages);
    expect(events.map((event: ToolEvent) => event.type)).toEqual(
      expect.arrayContaining(['tool.started', 'ask.requested', 'ask.answered', 'tool.finished']),
    );
    expect(events.find((event) => event.type === 'ask.requested')?.data).toMatchObject({ askId: ask.askId });
    expect(messages.find((message) => message.event === 'result')?.data).toContain('"scheduled":true');
    expect(await handleWhen(runId, 'm1', (h) => h.status === 'completed')).toMatchObject({
      result: { ok: true, value: { scheduled: true, day: 'Tuesday', minutes: 45 } },
    });
    expect((await asksOf(runId)).body.asks).toEqual([]);
  });

  it('values outside the form are a 400 naming each; the ask stays open; decline and cancel are answers too', async () => {
    const runId = await startRun();
    await post(`/runs/${runId}/calls`, meeting('m2'), { headers: { prefer: 'respond-async' } });
    const ask = await openAsk(runId);
    const bad = await answer(runId, ask.askId, {
      action: 'accept',
      values: { day: 'Sunday', minutes: 500, notes: 'x'.repeat(201), extra: true },
    });
    expect(bad.status).toBe(400);
    const error = (await bad.json()) as { kind: string; message: string };
    expect(error.kind).toBe('invalid-argument');
    for (const part of [
      '"day" must be one of',
      '"minutes" must be at most 120',
      '"notes" must be at most 200',
      '"extra" is not a field',
    ])
      expect(error.message).toContain(part);
    const missing = await answer(runId, ask.askId, { action: 'accept', values: {} });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toContain('"day" is required');
    const nonsense = await answer(runId, ask.askId, { action: 'later' });
    expect(nonsense.status).toBe(400);
    expect((await asksOf(runId)).body.asks.map((open) => open.askId)).toEqual([ask.askId]);
    expect((await answer(runId, ask.askId, { action: 'decline' })).status).toBe(200);
    expect(await handleWhen(runId, 'm2', (h) => h.status === 'completed')).toMatchObject({
      result: { ok: true, value: { scheduled: false, answer: 'decline' } },
    });
  });

  it('another identity sees no ask and cannot answer one; an answer is taken once; a huge one is refused whole', async () => {
    const runId = await startRun();
    await post(`/runs/${runId}/calls`, meeting('m3'), { headers: { prefer: 'respond-async' } });
    const ask = await openAsk(runId);
    expect((await asksOf(runId, 'bob')).status).toBe(404);
    const stranger = await answer(
      runId,
      ask.askId,
      { action: 'accept', values: { day: 'Monday', minutes: 15 } },
      'bob',
    );
    expect(stranger.status).toBe(404);
    // A megabyte of notes: refused (the body bound or the field's), never a 5xx, and nothing kept.
    const huge = await answer(runId, ask.askId, {
      action: 'accept',
      values: { day: 'Monday', minutes: 15, notes: 'x'.repeat(1_000_000) },
    });
    expect([400, 413]).toContain(huge.status);
    const wide = await answer(runId, ask.askId, {
      action: 'accept',
      values: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 1])),
    });
    expect(wide.status).toBe(400);
    expect((await wide.json()) as { message: string }).toMatchObject({
      message: expect.stringContaining('more'),
    });
    expect((await asksOf(runId)).body.asks).toHaveLength(1);
    const [first, twin] = await Promise.all([
      answer(runId, ask.askId, { action: 'accept', values: { day: 'Friday', minutes: 30 } }),
      answer(runId, ask.askId, { action: 'decline' }),
    ]);
    expect([first.status, twin.status].sort()).toEqual([200, 404]);
    const replay = await answer(runId, ask.askId, { action: 'decline' });
    expect(replay.status).toBe(404);
    expect(await handleWhen(runId, 'm3', (h) => h.status === 'completed')).toMatchObject({
      result: { ok: true },
    });
  });

  it('an open ask outlives the object’s restart: listed under its id, and answered, the call run again completes', async () => {
    const runId = await startRun();
    await post(`/runs/${runId}/calls`, meeting('m4'), { headers: { prefer: 'respond-async' } });
    const ask = await openAsk(runId);
    await abortAllDurableObjects();
    const after = await asksOf(runId);
    expect(after.body.asks.map((open) => open.askId)).toEqual([ask.askId]);
    expect(
      (await answer(runId, ask.askId, { action: 'accept', values: { day: 'Thursday', minutes: 60 } })).status,
    ).toBe(200);
    expect(await handleWhen(runId, 'm4', (h) => h.status === 'completed')).toMatchObject({
      attempts: 2,
      result: { ok: true, value: { scheduled: true, day: 'Thursday', minutes: 60 } },
    });
  });

  it('a call waiting for its user keeps its object alive: the alarm stays within keepAliveMs while the ask is open', async () => {
    const runId = await startRun();
    await post(`/runs/${runId}/calls`, meeting('m5'), { headers: { prefer: 'respond-async' } });
    const ask = await openAsk(runId);
    // The idle alarm would be 15 minutes ahead; a waiting ask holds it within the keep-alive time.
    await runDurableObjectAlarm(hostOf(runId));
    const alarm = await runInDurableObject(hostOf(runId), (_host, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeLessThanOrEqual(Date.now() + 31_000);
    expect((await asksOf(runId)).body.asks.map((open) => open.askId)).toEqual([ask.askId]);
    expect((await answer(runId, ask.askId, { action: 'cancel' })).status).toBe(200);
  });

  it('a URL ask shows its page and answers only whether the person finished', async () => {
    const runId = await startRun();
    await post(
      `/runs/${runId}/calls`,
      { tool: 'connect_calendar', args: {}, toolCallId: 'u1' },
      {
        headers: { prefer: 'respond-async' },
      },
    );
    const ask = await openAsk(runId);
    expect(ask).toMatchObject({ url: 'https://calendar.example.com/connect' });
    expect(ask).not.toHaveProperty('schema');
    expect((await answer(runId, ask.askId, { action: 'accept' })).status).toBe(200);
    expect(await handleWhen(runId, 'u1', (h) => h.status === 'completed')).toMatchObject({
      result: { ok: true, value: { connected: true } },
    });
  });
});
