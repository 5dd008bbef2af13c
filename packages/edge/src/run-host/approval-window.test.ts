import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import type { CallRecord, CallStore, PendingApproval, ToolEvent, ToolResult } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { allMessages, eventsOf } from '../test-utils/sse.js';
import { hostOf, post, send, startRun } from '../test-utils/worker.js';

// A person's pause: a call waiting for approval keeps its run from idling out for the approval
// window (default a day, the deployable Worker's), then lapses with the run, settled.
const day = 24 * 60 * 60_000;

async function askApproval(runId: string): Promise<string> {
  const response = await post(`/runs/${runId}/calls`, {
    tool: 'publish_note',
    args: { title: 'waits' },
    toolCallId: 'waits',
  });
  const pending = (await response.json()) as ToolResult;
  if (pending.ok || pending.error.kind !== 'approval-pending') throw new Error('expected approval-pending');
  return String(pending.error.details?.approvalId);
}

describe('the idle alarm and calls that wait for approval', () => {
  it('holds off while a call waits within the window; past it, ends the run and settles the waiting call as aborted', async () => {
    const runId = await startRun();
    const approvalId = await askApproval(runId);

    // The idle alarm fires (as after 15 quiet minutes): the run stays, and the alarm waits another idle time.
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    const held = await runInDurableObject(hostOf(runId), async (_host, state) => ({
      alarm: await state.storage.getAlarm(),
      pending: state.storage.kv.get<PendingApproval>(`a:${approvalId}`),
    }));
    expect(held.pending).toBeDefined();
    expect(held.alarm).toBeGreaterThanOrEqual(Date.now() + 15 * 60_000);

    // A minute short of a day later (the call's handle backdated: it waits since it asked), the
    // window is still open: the alarm holds off again, and the run and its waiting call stay.
    const waiting = await runInDurableObject(hostOf(runId), (_host, state) =>
      state.storage.kv.get<CallRecord>('o:waits'),
    );
    expect(waiting).toMatchObject({ status: 'input_required', approvalId });
    const backdate = (ms: number) =>
      runInDurableObject(hostOf(runId), (host) => {
        // Through the host's call store, which keeps the open calls' records in memory beside storage.
        const { calls } = (host as unknown as { run: { log: { calls: CallStore } } }).run.log;
        calls.put({ ...waiting!, updatedAt: waiting!.updatedAt - ms });
      });
    await backdate(day - 60_000);
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    const stillHeld = await runInDurableObject(hostOf(runId), async (_host, state) => ({
      alarm: await state.storage.getAlarm(),
      pending: state.storage.kv.get<PendingApproval>(`a:${approvalId}`),
    }));
    expect(stillHeld.pending).toBeDefined();
    expect(stillHeld.alarm).toBeGreaterThanOrEqual(Date.now() + 15 * 60_000);

    // A day later, the alarm ends the run; the waiting call lapses, settled.
    await backdate(day);
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    const events = eventsOf(await allMessages(await send(`/runs/${runId}/events`)));
    const failed = events.find(
      (event: ToolEvent) => event.type === 'tool.failed' && event.callId === 'waits',
    );
    expect(failed?.data).toMatchObject({ error: { kind: 'aborted' } });
    expect(events.at(-1)?.type).toBe('run.finished');
    const late = await post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(late.status).toBe(409);
  });
});
