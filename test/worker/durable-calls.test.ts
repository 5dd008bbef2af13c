// Calls that outlive their connection and their host, under `wrangler dev` as users run it: a call
// made with `Prefer: respond-async` goes on when its client hangs up and its result waits at its
// handle; a crash of the whole workerd process group in the middle of calls leaves no call running
// forever — each is settled when its run's object wakes (`interrupted`, or run again for an
// idempotent tool) — and the run's log has no gap or repeat by `seq`; an open ask survives it.
import type { CallHandle, ToolEvent } from '@toolctx/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';
import { eventsUntil } from './sse-events.js';

let worker: ExampleWorker;
beforeAll(async () => {
  worker = await startExampleWorker();
});
afterAll(() => worker?.dev.stop());

async function handleOf(runId: string, callId: string): Promise<CallHandle> {
  const response = await worker.send(`/runs/${runId}/calls/${callId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as CallHandle;
}

/** Polls a call's handle until it has settled, within a budget scaled to the machine. */
async function settled(runId: string, callId: string): Promise<CallHandle> {
  const until = performance.now() + budget(30_000);
  for (;;) {
    const handle = await handleOf(runId, callId);
    if (handle.status !== 'working') return handle;
    if (performance.now() > until) throw new Error(`${callId} still working: ${JSON.stringify(handle)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const startAsync = async (runId: string, body: object) => {
  const response = await worker.post(`/runs/${runId}/calls`, body, { headers: { prefer: 'respond-async' } });
  expect(response.status).toBe(202);
  return response;
};

describe('durable calls under wrangler dev', () => {
  it('a respond-async call whose client hangs up goes on; its result waits at its Location', async () => {
    const runId = await worker.startRun();
    const leaving = new AbortController();
    const response = await worker.post(
      `/runs/${runId}/calls`,
      { tool: 'count_steps', args: { steps: 4, delayMs: 250 }, toolCallId: 'left' },
      { headers: { prefer: 'respond-async' }, signal: leaving.signal },
    );
    expect(response.status).toBe(202);
    const location = response.headers.get('location');
    expect(location).toBe(`/runs/${runId}/calls/left`);
    leaving.abort(); // the client goes away at once
    const handle = await settled(runId, 'left');
    expect(handle).toMatchObject({ status: 'completed', result: { ok: true, value: { steps: 4 } } });
    expect((await (await worker.send(location!)).json()) as CallHandle).toEqual(handle);
  });

  it('a crash of the process group mid-call: every started call ends settled, and the log has no gap or repeat', async () => {
    const runId = await worker.startRun();
    await startAsync(runId, { tool: 'slow_wait', args: { ms: 120_000 }, toolCallId: 'cut' });
    await startAsync(runId, { tool: 'count_steps', args: { steps: 6, delayMs: 500 }, toolCallId: 'again' });
    // Both are under way: each has reported progress.
    await eventsUntil(await worker.send(`/runs/${runId}/events`), (events) =>
      ['cut', 'again'].every((id) => events.some((e) => e.type === 'tool.progress' && e.callId === id)),
    );

    await worker.dev.crash();

    // The first request wakes the run's object: the calls the crash cut off are settled first.
    expect(await handleOf(runId, 'cut')).toMatchObject({
      status: 'failed',
      result: { ok: false, error: { kind: 'interrupted', retryable: true } },
    });
    expect(await settled(runId, 'again')).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { ok: true, value: { steps: 6 } },
    });
    const open = (await (await worker.send(`/runs/${runId}/calls`)).json()) as { calls: unknown[] };
    expect(open.calls).toEqual([]);

    expect((await worker.send(`/runs/${runId}`, { method: 'DELETE' })).status).toBe(200);
    const events: ToolEvent[] = await eventsUntil(await worker.send(`/runs/${runId}/events`));
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.type).toBe('run.finished');
    const started = new Set(events.filter((e) => e.type === 'tool.started').map((e) => e.callId));
    for (const callId of started) {
      const ends = events.filter((e) => e.callId === callId && /^tool\.(finished|failed)$/.test(e.type));
      expect(ends, `the ends of ${callId}`).toHaveLength(1);
    }
    const retry = events.find((e) => e.type === 'tool.retry' && e.callId === 'again');
    expect(retry?.data).toMatchObject({ attempt: 2, error: { kind: 'interrupted' } });
  });

  it('an ask open when the process group is killed is still open under its id after, and answered, the call completes', async () => {
    const runId = await worker.startRun();
    await startAsync(runId, { tool: 'schedule_meeting', args: { topic: 'the launch' }, toolCallId: 'meet' });
    const asks = async () =>
      ((await (await worker.send(`/runs/${runId}/asks`)).json()) as { asks: { askId: string }[] }).asks;
    const until = performance.now() + budget(15_000);
    while ((await asks()).length === 0) {
      if (performance.now() > until) throw new Error('the call never asked');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [ask] = await asks();

    await worker.dev.crash();

    expect((await asks()).map((open) => open.askId)).toEqual([ask!.askId]);
    const answered = await worker.post(`/runs/${runId}/asks/${ask!.askId}`, {
      action: 'accept',
      values: { day: 'Wednesday', minutes: 30, notes: 'bring the numbers' },
    });
    expect(answered.status).toBe(200);
    expect(await settled(runId, 'meet')).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { ok: true, value: { scheduled: true, day: 'Wednesday', minutes: 30 } },
    });
    // Taken once: the same answer again finds no open ask.
    const replay = await worker.post(`/runs/${runId}/asks/${ask!.askId}`, { action: 'decline' });
    expect(replay.status).toBe(404);
    await (await worker.send(`/runs/${runId}`, { method: 'DELETE' })).text();
  });
});
