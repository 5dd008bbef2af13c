import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import type { ToolResult } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { allMessages, eventsOf, messagesUntil } from '../test-utils/sse.js';
import { hostOf, post, send, startRun } from '../test-utils/worker.js';

// These go through the deployable Worker (src/worker.ts): the door in front, a Durable Object
// per run behind it, real DO storage and alarms in workerd.

describe('the Durable Object run host, through the Worker', () => {
  it('refuses a request without the token', async () => {
    const response = await exports.default.fetch('http://toolctx.test/tools');
    expect(response.status).toBe(401);
  });

  it('two requests to one run see the same state', async () => {
    const runId = await startRun();
    const call = await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 2, delayMs: 0 } });
    expect(await call.json()).toEqual({ ok: true, value: { steps: 2 }, content: '{"steps":2}' });
    const events = eventsOf(
      await messagesUntil(await send(`/runs/${runId}/events`), (m) => m.event === 'tool.finished'),
    );
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'run.started'],
      [2, 'tool.started'],
      [3, 'tool.progress'],
      [4, 'tool.progress'],
      [5, 'tool.finished'],
    ]);
    expect(events[0]!.data).toEqual({ phase: 'act', sessionId: 'sess-1' });
    const otherUser = await send(`/runs/${runId}/events`, { as: 'bob' });
    expect(otherUser.status).toBe(404);
    expect(await otherUser.json()).toMatchObject({ kind: 'not-found' });
  });

  it('a cancel sent in a second request aborts a call running in the first', async () => {
    const runId = await startRun();
    const running = post(`/runs/${runId}/calls`, {
      tool: 'slow_wait',
      args: { ms: 60_000 },
      toolCallId: 'slow-1',
    });
    await messagesUntil(await send(`/runs/${runId}/events`), (m) => m.event === 'tool.progress');
    const cancel = await post(`/runs/${runId}/calls/slow-1/cancel`, {});
    expect(await cancel.json()).toEqual({ callId: 'slow-1', cancelled: true });
    const result = (await (await running).json()) as ToolResult;
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'aborted', message: 'The call was cancelled by its caller.' },
    });
  });

  it('an unknown run is a 404, and asking does not create one', async () => {
    const response = await post('/runs/run_never/calls', { tool: 'count_steps', args: { steps: 1 } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ kind: 'not-found' });
  });

  it('after the object restarts, the stream resumes from storage without a gap, and seq keeps counting', async () => {
    const runId = await startRun();
    await (
      await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 3, delayMs: 0 } })
    ).text(); // the answer streams: read it to the end
    const seen = eventsOf(
      await messagesUntil(await send(`/runs/${runId}/events`), (_, all) => all.length === 3),
    );
    expect(seen.map((e) => e.seq)).toEqual([1, 2, 3]);

    await abortAllDurableObjects();

    const resumed = eventsOf(
      await messagesUntil(
        await send(`/runs/${runId}/events`, { headers: { 'last-event-id': '3' } }),
        (m) => m.event === 'tool.finished',
      ),
    );
    expect(resumed.map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(resumed.map((e) => e.type)).toEqual(['tool.progress', 'tool.progress', 'tool.finished']);

    // The live run is rebuilt from the record: the next call's events follow on, with no second run.started.
    const again = await post(`/runs/${runId}/calls`, { tool: 'always_fails', args: {} });
    expect(await again.json()).toMatchObject({ ok: false, error: { kind: 'tool-error' } });
    await send(`/runs/${runId}`, { method: 'DELETE' });
    const rest = eventsOf(await allMessages(await send(`/runs/${runId}/events?after=6`)));
    expect(rest.map((e) => [e.seq, e.type])).toEqual([
      [7, 'tool.started'],
      [8, 'tool.failed'],
      [9, 'run.finished'],
    ]);
  });

  it('keeps the record, one key per event and one per settled call in the object, nothing else', async () => {
    const runId = await startRun();
    const answer = await post(`/runs/${runId}/calls`, {
      tool: 'count_steps',
      args: { steps: 1, delayMs: 0 },
      toolCallId: 'call_1',
    });
    await answer.text(); // the answer streams: read it to the end
    const keys = await runInDurableObject(hostOf(runId), (_host, state) =>
      [...state.storage.kv.list()].map(([key]) => key),
    );
    expect(keys).toEqual([
      'c:call_1',
      'e:000000000000001',
      'e:000000000000002',
      'e:000000000000003',
      'e:000000000000004',
      'run',
    ]);
  });

  it('the idle alarm ends the run; a call after that is a 409', async () => {
    const runId = await startRun();
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    const events = eventsOf(await allMessages(await send(`/runs/${runId}/events`)));
    expect(events.map((e) => e.type)).toEqual(['run.started', 'run.finished']);
    expect(events[1]!.data).toEqual({ status: 'ended', calls: 0 });
    const late = await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1 } });
    expect(late.status).toBe(409);
    // An ended run gets no idle alarm: the one it has deletes its storage, a day on.
    const alarm = await runInDurableObject(hostOf(runId), (_host, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now() + 23 * 60 * 60_000);
  });

  it('a busy run keeps the idle alarm it has instead of writing it again on every call', async () => {
    const runId = await startRun();
    const alarmAt = () => runInDurableObject(hostOf(runId), (_host, state) => state.storage.getAlarm());
    const armed = await alarmAt();
    // Set at least the default idle time (15 minutes) ahead, at most a tenth more.
    expect(armed).toBeGreaterThanOrEqual(Date.now() + 15 * 60_000);
    expect(armed).toBeLessThanOrEqual(Date.now() + 16.5 * 60_000);
    for (let i = 0; i < 3; i++) {
      await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1, delayMs: 0 } });
    }
    expect(await alarmAt()).toBe(armed);
  });

  it('the idle alarm waits while a call is still running', async () => {
    const runId = await startRun();
    const running = post(`/runs/${runId}/calls`, { tool: 'slow_wait', args: { ms: 300 } });
    await messagesUntil(await send(`/runs/${runId}/events`), (m) => m.event === 'tool.progress');
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    expect(await (await running).json()).toMatchObject({ ok: true, value: { waitedMs: expect.any(Number) } });
    const info = await send(`/runs/${runId}`, { method: 'DELETE' });
    expect(await info.json()).toMatchObject({ ended: true });
    const events = eventsOf(await allMessages(await send(`/runs/${runId}/events`)));
    expect(events.at(-1)?.data).toEqual({ status: 'ended', calls: 1 });
  });

  it('a reader that leaves the event stream is let go by the object (found on its next write)', async () => {
    const runId = await startRun();
    await messagesUntil(await send(`/runs/${runId}/events`), (m) => m.event === 'run.started');
    // The count of readers is private to the object; reading it is the only way to see a leak.
    const readers = () =>
      runInDurableObject(
        hostOf(runId),
        (host) => (host as unknown as { run: { readers: number } }).run.readers,
      );
    expect(await readers()).toBe(1);
    await (
      await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1, delayMs: 0 } })
    ).text(); // the answer streams: read it to the end
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readers()).toBe(0);
  });

  it('a client that disconnects during a streamed call aborts the tool', async () => {
    const runId = await startRun();
    const client = new AbortController();
    const response = await post(
      `/runs/${runId}/calls`,
      { tool: 'slow_wait', args: { ms: 60_000 }, toolCallId: 'hang-up' },
      { headers: { accept: 'text/event-stream' }, signal: client.signal },
    );
    expect(response.headers.get('x-toolctx-call-id')).toBe('hang-up');
    await messagesUntil(response, (m) => m.event === 'tool.progress', { cancel: false });
    client.abort();
    const events = eventsOf(
      await messagesUntil(await send(`/runs/${runId}/events`), (m) => m.event === 'tool.failed'),
    );
    expect(events.at(-1)).toMatchObject({ callId: 'hang-up', data: { error: { kind: 'aborted' } } });
  });
});

describe('approvals and artifacts through the Worker and its Durable Objects', () => {
  it('resumes an approval in the run object and serves the artifact from R2 and KV', async () => {
    const runId = await startRun();
    const pending = (await (
      await post(`/runs/${runId}/calls`, { tool: 'publish_note', args: { title: 't' } })
    ).json()) as ToolResult;
    const approvalId = !pending.ok ? String(pending.error.details?.approvalId) : '';
    expect(approvalId).toMatch(/^apr_/);
    const decided = await post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(await decided.json()).toMatchObject({ ok: true, value: { published: 't', approvalId } });
    const saved = (await (
      await post(`/runs/${runId}/calls`, { tool: 'save_note', args: { text: 'in R2' } })
    ).json()) as {
      value: { ref: string };
    };
    const got = await send(`/artifacts/${saved.value.ref}`);
    expect(await got.text()).toBe('in R2');
    expect((await send(`/artifacts/${saved.value.ref}`, { as: 'bob' })).status).toBe(404);
  });
});
