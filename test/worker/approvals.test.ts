// Approvals on the example Worker under `wrangler dev`: what a person's pause must survive (a
// restart of the Worker and its Durable Objects) and what a resumed call must honour (cancel,
// the decider hanging up).
import type { ToolEvent, ToolResult } from '@toolctx/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';
import { hangUpDuring } from './run-events.js';
import { eventsUntil } from './sse-events.js';

let worker: ExampleWorker;
beforeAll(async () => {
  worker = await startExampleWorker();
});
afterAll(async () => {
  await worker?.dev.stop();
});

async function askApproval(runId: string, args: unknown, toolCallId: string): Promise<string> {
  const response = await worker.post(`/runs/${runId}/calls`, { tool: 'publish_note', args, toolCallId });
  const pending = (await response.json()) as ToolResult;
  expect(pending).toMatchObject({ ok: false, error: { kind: 'approval-pending' } });
  return String(!pending.ok && pending.error.details?.approvalId);
}

const callEvents = (runId: string, callId: string, stop: (events: ToolEvent[]) => boolean) =>
  worker
    .send(`/runs/${runId}/events`)
    .then((response) => eventsUntil(response, (events) => stop(events.filter((e) => e.callId === callId))))
    .then((events) => events.filter((e) => e.callId === callId));
const has = (type: string) => (events: ToolEvent[]) => events.some((e) => e.type === type);

describe('approvals on the example Worker under wrangler dev', () => {
  it('an approval asked before wrangler dev restarts is decided after it: the call runs and answers', async () => {
    const runId = await worker.startRun();
    const approvalId = await askApproval(runId, { title: 'Q3 report' }, 'restart-1');
    expect(approvalId).toMatch(/^apr_/);

    await worker.dev.restart();

    // The person deciding sees what the call would run with, read back from the run's storage.
    const listed = await worker.send(`/runs/${runId}/approvals`);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({
      approvals: [
        {
          approvalId,
          toolCallId: 'restart-1',
          tool: 'publish_note',
          args: { title: 'Q3 report', delayMs: 0 },
          requestedAt: expect.any(Number),
        },
      ],
    });
    const stranger = await worker.send(`/runs/${runId}/approvals`, { as: 'eve' });
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).not.toContain('Q3');

    const decided = await worker.post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({ ok: true, value: { published: 'Q3 report', approvalId } });
    const events = await callEvents(runId, 'restart-1', has('tool.finished'));
    expect(events.map((e) => e.type)).toEqual([
      'tool.started',
      'approval.requested',
      'tool.pending',
      'approval.decided',
      'tool.finished',
    ]);
    expect(events.map((e) => e.seq)).toEqual([2, 3, 4, 5, 6]);
    expect((await worker.post(`/approvals/${approvalId}`, { runId, approved: true })).status).toBe(404);
    expect(await (await worker.send(`/runs/${runId}/approvals`)).json()).toEqual({ approvals: [] });
  });

  it('a call running on an approval is cancelled by POST /runs/:id/calls/:callId/cancel', async () => {
    const runId = await worker.startRun();
    const approvalId = await askApproval(runId, { title: 'slow', delayMs: 60_000 }, 'resumed-1');
    const resumed = worker.post(`/approvals/${approvalId}`, { runId, approved: true });
    await callEvents(runId, 'resumed-1', has('approval.decided'));
    const cancel = await worker.post(`/runs/${runId}/calls/resumed-1/cancel`, {});
    expect(cancel.status).toBe(200);
    expect(await (await resumed).json()).toMatchObject({ ok: false, error: { kind: 'aborted' } });
  });

  it('a call cancelled while it waits is settled as aborted, and its approval then answers 404', async () => {
    const runId = await worker.startRun();
    const approvalId = await askApproval(runId, { title: 'never' }, 'waiting-1');
    expect((await worker.post(`/runs/${runId}/calls/waiting-1/cancel`, {})).status).toBe(200);
    const events = await callEvents(runId, 'waiting-1', has('tool.failed'));
    expect(events.at(-1)).toMatchObject({ type: 'tool.failed', data: { error: { kind: 'aborted' } } });
    const late = await worker.post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(late.status).toBe(404);
    expect(await late.json()).toMatchObject({ kind: 'not-found', details: { reason: 'cancelled' } });
  });

  it.each([
    ['JSON', 'application/json'],
    ['SSE', 'text/event-stream'],
  ])(
    'a decider who hangs up (%s) cancels the approved call: tool.failed (aborted) within 2 s',
    async (label, accept) => {
      const runId = await worker.startRun();
      const toolCallId = `approved-hangup-${label}`;
      const approvalId = await askApproval(runId, { title: 'slow', delayMs: 60_000 }, toolCallId);
      const { end, latencyMs } = await hangUpDuring(
        worker,
        runId,
        toolCallId,
        (e) => e.type === 'approval.decided' && e.callId === toolCallId,
        (signal) =>
          worker.post(`/approvals/${approvalId}`, { runId, approved: true }, { signal, headers: { accept } }),
      );
      console.log(`approval (${label}): hang-up to ${end.type} in ${latencyMs} ms`);
      expect(end.type).toBe('tool.failed');
      expect((end.data as { error?: { kind?: string } }).error?.kind).toBe('aborted');
      expect(latencyMs).toBeLessThan(2000);
    },
  );
});
