import { describe, expect, it } from 'vitest';
import { memoryServer } from '../test-utils/server.js';
import { allMessages, eventsOf, messagesUntil } from '../test-utils/sse.js';

// A call's 200 comes at once and its body is the result: reading the body waits for the call.
describe('HTTP door: GET /runs/:runId/events', () => {
  it('streams the record with id = seq, then live events, and closes when the run finishes', async () => {
    const { send, post, startRun } = memoryServer();
    const runId = await startRun();
    await (
      await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1, delayMs: 0 } })
    ).text();
    const live = send(`/runs/${runId}/events`);
    const response = await live;
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    await (await post(`/runs/${runId}/calls`, { tool: 'always_fails', args: {} })).text();
    await send(`/runs/${runId}`, { method: 'DELETE' });
    const messages = await allMessages(response);
    const events = eventsOf(messages);
    expect(events.map((e) => e.type)).toEqual([
      'run.started',
      'tool.started',
      'tool.progress',
      'tool.finished',
      'tool.started',
      'tool.failed',
      'run.finished',
    ]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(messages.map((m) => m.id)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('resumes after Last-Event-ID or ?after= with no gap and no duplicate; the header wins', async () => {
    const { send, post, startRun } = memoryServer();
    const runId = await startRun();
    await (
      await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 3, delayMs: 0 } })
    ).text();
    await send(`/runs/${runId}`, { method: 'DELETE' });
    const first = eventsOf(
      await messagesUntil(await send(`/runs/${runId}/events`), (_, all) => all.length === 3),
    );
    expect(first.map((e) => e.seq)).toEqual([1, 2, 3]);
    const byHeader = eventsOf(
      await allMessages(await send(`/runs/${runId}/events?after=1`, { headers: { 'last-event-id': '3' } })),
    );
    expect(byHeader.map((e) => e.seq)).toEqual([4, 5, 6, 7]);
    const byQuery = eventsOf(await allMessages(await send(`/runs/${runId}/events?after=6`)));
    expect(byQuery.map((e) => e.seq)).toEqual([7]);
    expect(await allMessages(await send(`/runs/${runId}/events?after=7`))).toEqual([]);
  });

  it('a Last-Event-ID that is not a number is 400; one past the end is 400', async () => {
    const { send, startRun } = memoryServer();
    const runId = await startRun();
    for (const id of ['abc', '-1', '1.5', '1e3']) {
      const response = await send(`/runs/${runId}/events`, { headers: { 'last-event-id': id } });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ kind: 'bad-request' });
    }
    const ahead = await send(`/runs/${runId}/events?after=99`);
    expect(ahead.status).toBe(400);
    expect(await ahead.json()).toMatchObject({ kind: 'bad-request', details: { after: 99, lastSeq: 1 } });
  });

  it('resuming from before the kept window is a 410 that says what is kept', async () => {
    const { send, post, startRun } = memoryServer({ maxEvents: 4 });
    const runId = await startRun();
    await (
      await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 4, delayMs: 0 } })
    ).text();
    // 1 run.started + 1 started + 4 progress + 1 finished = 7; the last 4 (4–7) are kept.
    const gone = await send(`/runs/${runId}/events?after=2`);
    expect(gone.status).toBe(410);
    const body = (await gone.json()) as { kind: string; message: string; details: unknown };
    expect(body).toMatchObject({ kind: 'events-trimmed', details: { after: 2, oldestSeq: 4, lastSeq: 7 } });
    expect(body.message).toContain('Resume from event 3 or later');
    const edge = await messagesUntil(
      await send(`/runs/${runId}/events?after=3`),
      (_, all) => all.length === 4,
    );
    expect(eventsOf(edge).map((e) => e.seq)).toEqual([4, 5, 6, 7]);
  });
});
