import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import type { CallHandle, CallStore, ToolEvent } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { allMessages, eventsOf } from '../test-utils/sse.js';
import { hostOf, post, send, startRun } from '../test-utils/worker.js';

// A call's handle over HTTP, in the run's Durable Object: GET /runs/:runId/calls/:callId, the open
// calls, `Prefer: respond-async`, a twin of a request, and what a restart leaves.

const handleOf = async (runId: string, callId: string, as = 'ana') => {
  const response = await send(`/runs/${runId}/calls/${callId}`, { as });
  return { status: response.status, body: (await response.json()) as CallHandle & { kind?: string } };
};

/** Polls the handle until `done` holds, for a call that settles in its own time. */
async function handleWhen(runId: string, callId: string, done: (handle: CallHandle) => boolean) {
  for (let i = 0; i < 300; i++) {
    const { body } = await handleOf(runId, callId);
    if (done(body)) return body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`call ${callId} never reached the state asked for`);
}

describe('call handles over HTTP', () => {
  it('Prefer: respond-async is a 202 with Location at once; the handle says working, then completed with the result', async () => {
    const runId = await startRun();
    const response = await post(
      `/runs/${runId}/calls`,
      { tool: 'count_steps', args: { steps: 3, delayMs: 300 }, toolCallId: 'later' },
      { headers: { prefer: 'respond-async' } },
    );
    expect(response.status).toBe(202);
    expect(response.headers.get('location')).toBe(`/runs/${runId}/calls/later`);
    expect(response.headers.get('preference-applied')).toBe('respond-async');
    expect(await response.json()).toMatchObject({
      toolCallId: 'later',
      tool: 'count_steps',
      status: 'working',
    });
    const open = (await (await send(`/runs/${runId}/calls`)).json()) as { calls: CallHandle[] };
    expect(open.calls.map((call) => [call.toolCallId, call.status])).toEqual([['later', 'working']]);
    const settled = await handleWhen(runId, 'later', (handle) => handle.status !== 'working');
    expect(settled).toMatchObject({ status: 'completed', result: { ok: true, value: { steps: 3 } } });
    expect(settled).not.toHaveProperty('args');
    expect(((await (await send(`/runs/${runId}/calls`)).json()) as { calls: unknown[] }).calls).toEqual([]);
  });

  it('names the artifacts the call saved, once settled, for the artifact routes to fetch', async () => {
    const runId = await startRun();
    const args = { text: 'hello', label: 'greeting.txt' };
    await (await post(`/runs/${runId}/calls`, { tool: 'save_note', args, toolCallId: 'n' })).text();
    const { body } = await handleOf(runId, 'n');
    const ref = (body.result as { value: { ref: string } }).value.ref;
    expect(body.artifacts).toEqual([
      { ref, kind: 'note', mediaType: 'text/plain; charset=utf-8', bytes: 5, label: 'greeting.txt' },
    ]);
    expect(await (await send(`/artifacts/${ref}`)).text()).toBe('hello');
  });

  it('a plain call’s handle keeps its result after the answer; failed and cancelled are told apart', async () => {
    const runId = await startRun();
    await (await post(`/runs/${runId}/calls`, { tool: 'always_fails', args: {}, toolCallId: 'f' })).text();
    expect((await handleOf(runId, 'f')).body).toMatchObject({
      status: 'failed',
      result: { ok: false, error: { kind: 'tool-error' } },
    });
    await post(
      `/runs/${runId}/calls`,
      { tool: 'slow_wait', args: { ms: 60_000 }, toolCallId: 's' },
      { headers: { prefer: 'respond-async' } },
    );
    expect((await post(`/runs/${runId}/calls/s/cancel`, {})).status).toBe(200);
    const cancelled = await handleWhen(runId, 's', (handle) => handle.status !== 'working');
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      result: { ok: false, error: { kind: 'aborted' } },
    });
  });

  it('a call waiting for approval is input_required with its approval id, and completed once approved', async () => {
    const runId = await startRun();
    const asked = await (
      await post(`/runs/${runId}/calls`, { tool: 'publish_note', args: { title: 't' }, toolCallId: 'p' })
    ).json();
    const approvalId = (asked as { error: { details: { approvalId: string } } }).error.details.approvalId;
    expect((await handleOf(runId, 'p')).body).toMatchObject({ status: 'input_required', approvalId });
    await (await post(`/approvals/${approvalId}`, { runId, approved: true })).text();
    expect((await handleOf(runId, 'p')).body).toMatchObject({ status: 'completed', result: { ok: true } });
  });

  it('another identity, an unknown call and an unknown run are the same 404', async () => {
    const runId = await startRun();
    await (
      await post(`/runs/${runId}/calls`, {
        tool: 'count_steps',
        args: { steps: 1, delayMs: 0 },
        toolCallId: 'mine',
      })
    ).text();
    const stranger = await handleOf(runId, 'mine', 'bob');
    expect(stranger).toMatchObject({ status: 404, body: { kind: 'not-found' } });
    expect((await handleOf(runId, 'nope')).status).toBe(404);
    expect((await handleOf('run_nobody', 'mine')).status).toBe(404);
    expect((await send(`/runs/${runId}/calls`, { as: 'bob' })).status).toBe(404);
  });

  it('a twin of a call (the same toolCallId) is a 409 naming the handle, and the first call is untouched', async () => {
    const runId = await startRun();
    const call = { tool: 'slow_wait', args: { ms: 200 }, toolCallId: 'twin' };
    const first = await post(`/runs/${runId}/calls`, call, { headers: { prefer: 'respond-async' } });
    expect(first.status).toBe(202);
    const twin = await post(`/runs/${runId}/calls`, call, { headers: { prefer: 'respond-async' } });
    expect(twin.status).toBe(409);
    expect(((await twin.json()) as { message: string }).message).toContain(`/runs/${runId}/calls/twin`);
    const settled = await handleWhen(runId, 'twin', (handle) => handle.status !== 'working');
    expect(settled).toMatchObject({ status: 'completed', result: { ok: true } });
    // After it settled too: the id names that call for the run's retention window.
    expect((await post(`/runs/${runId}/calls`, call)).status).toBe(409);
    // A client cannot say its id is new: only the door's own ids skip the look-up.
    expect((await post(`/runs/${runId}/calls`, { ...call, newId: true })).status).toBe(409);
  });
});

describe('a call its object’s restart cut off', () => {
  it('is settled when the object wakes: interrupted, or run again for an idempotent tool; the log has no gap', async () => {
    const runId = await startRun();
    for (const [tool, args, toolCallId] of [
      ['slow_wait', { ms: 60_000 }, 'cut'],
      ['count_steps', { steps: 2, delayMs: 40 }, 'again'],
    ] as const) {
      const response = await post(
        `/runs/${runId}/calls`,
        { tool, args, toolCallId },
        { headers: { prefer: 'respond-async' } },
      );
      expect(response.status).toBe(202);
    }
    // While calls run, the object keeps an alarm within the keep-alive time (30 s), not the idle time.
    const alarm = await runInDurableObject(hostOf(runId), (_host, state) => state.storage.getAlarm());
    expect(alarm).toBeLessThanOrEqual(Date.now() + 31_000);

    await abortAllDurableObjects();

    const cut = (await handleOf(runId, 'cut')).body;
    expect(cut).toMatchObject({
      status: 'failed',
      result: { ok: false, error: { kind: 'interrupted', retryable: true } },
    });
    const again = await handleWhen(runId, 'again', (handle) => handle.status !== 'working');
    expect(again).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { ok: true, value: { steps: 2 } },
    });
    await (await send(`/runs/${runId}`, { method: 'DELETE' })).text();
    const events = eventsOf(await allMessages(await send(`/runs/${runId}/events`)));
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
    const ended = (callId: string) =>
      events.filter(
        (event: ToolEvent) => event.callId === callId && /^tool\.(finished|failed)$/.test(event.type),
      );
    expect(ended('cut').map((event) => event.type)).toEqual(['tool.failed']);
    expect(ended('again').map((event) => event.type)).toEqual(['tool.finished']);
    expect(
      events.find((event) => event.type === 'tool.retry' && event.callId === 'again')?.data,
    ).toMatchObject({
      attempt: 2,
      error: { kind: 'interrupted' },
    });
  });
});

describe('a running call keeps its object alive, within its bound', () => {
  it('the alarm stays within keepAliveMs while the call runs, and goes back to the idle time past maxCallMs', async () => {
    const runId = await startRun();
    await post(
      `/runs/${runId}/calls`,
      { tool: 'slow_wait', args: { ms: 120_000 }, toolCallId: 'long' },
      { headers: { prefer: 'respond-async' } },
    );
    const alarm = () => runInDurableObject(hostOf(runId), (_host, state) => state.storage.getAlarm());
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    expect(await alarm()).toBeLessThanOrEqual(Date.now() + 31_000);
    // An hour and more since it began running (slow_wait has no timeoutMs: maxCallMs bounds it).
    await runInDurableObject(hostOf(runId), (host) => {
      // Through the host's call store, which keeps the open calls' records in memory beside storage.
      const { calls } = (host as unknown as { run: { log: { calls: CallStore } } }).run.log;
      const record = calls.get('long')!;
      calls.put({ ...record, updatedAt: record.updatedAt - 61 * 60_000 });
    });
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    expect(await alarm()).toBeGreaterThanOrEqual(Date.now() + 15 * 60_000);
    expect((await handleOf(runId, 'long')).body.status).toBe('working');
    await post(`/runs/${runId}/calls/long/cancel`, {});
  });
});

describe('a decision core does not take', () => {
  it('is a 404 carrying core’s reason, before any stream: unknown, decided already, cancelled, another run’s', async () => {
    const ask = async (runId: string, toolCallId: string) => {
      const asked = (await (
        await post(`/runs/${runId}/calls`, { tool: 'publish_note', args: { title: 't' }, toolCallId })
      ).json()) as { error: { details: { approvalId: string } } };
      return asked.error.details.approvalId;
    };
    const refusal = async (approvalId: string, runId: string) => {
      const response = await post(`/approvals/${approvalId}`, { runId, approved: true });
      return { status: response.status, body: (await response.json()) as { kind: string; details: object } };
    };
    const runId = await startRun();
    const other = await startRun();
    expect(await refusal('appr_unknown', runId)).toMatchObject({
      status: 404,
      body: { kind: 'not-found', details: { reason: 'unknown-approval' } },
    });
    const decided = await ask(runId, 'd');
    await (await post(`/approvals/${decided}`, { runId, approved: true })).text();
    expect(await refusal(decided, runId)).toMatchObject({
      status: 404,
      body: { details: { reason: 'already-decided' } },
    });
    const cancelled = await ask(runId, 'c');
    expect((await post(`/runs/${runId}/calls/c/cancel`, {})).status).toBe(200);
    expect(await refusal(cancelled, runId)).toMatchObject({
      status: 404,
      body: { details: { reason: 'cancelled' } },
    });
    // Another run's approval, decided through this run (same owner): core refuses it; it still waits there.
    const elsewhere = await ask(other, 'e');
    expect((await refusal(elsewhere, runId)).status).toBe(404);
    expect((await handleOf(other, 'e')).body).toMatchObject({
      status: 'input_required',
      approvalId: elsewhere,
    });
  });
});
