import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import type { CallHandle, ToolEvent, ToolResult } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import type { Reply } from '../door/door-error.js';
import { allMessages, eventsOf, messagesUntil } from '../test-utils/sse.js';
import { hostOf, post, send, startRun } from '../test-utils/worker.js';
import type { RunRecord } from './run-log.js';

// Approvals, endings and retention of the Durable Object run host, through the deployable Worker
// (src/worker.ts, default options: idle 15 minutes, retention a day).
const keysOf = (runId: string) =>
  runInDurableObject(hostOf(runId), (_host, state) => [...state.storage.kv.list()].map(([key]) => key));
const alarmOf = (runId: string) =>
  runInDurableObject(hostOf(runId), (_host, state) => state.storage.getAlarm());
/** The host's private parts, which only a test reads. */
type Inside = { run: { working(): unknown[]; record?: RunRecord; log: { record: RunRecord } } };
const inside = (host: unknown) => host as Inside;

async function askApproval(runId: string, args: unknown, toolCallId: string): Promise<string> {
  const pending = (await (
    await post(`/runs/${runId}/calls`, { tool: 'publish_note', args, toolCallId })
  ).json()) as ToolResult;
  if (pending.ok || pending.error.kind !== 'approval-pending') throw new Error('expected approval-pending');
  return String(pending.error.details?.approvalId);
}

/** Waits for the event stream of the run to show `type` for `callId`. */
async function until(runId: string, type: string, callId: string): Promise<ToolEvent[]> {
  return eventsOf(
    await messagesUntil(
      await send(`/runs/${runId}/events`),
      (m) => m.event === type && (JSON.parse(m.data) as ToolEvent).callId === callId,
    ),
  );
}

describe('approvals in the Durable Object run host', () => {
  it('a pending approval is kept in storage, survives the object restarting, and is decided after it', async () => {
    const runId = await startRun();
    const approvalId = await askApproval(runId, { title: 'after restart' }, 'pub-1');
    const kept = await runInDurableObject(hostOf(runId), (_host, state) =>
      state.storage.kv.get(`a:${approvalId}`),
    );
    expect(kept).toMatchObject({
      approvalId,
      runId,
      callId: 'pub-1',
      toolName: 'publish_note',
      args: { title: 'after restart', delayMs: 0 },
      argsHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      owner: { tenant: 'default', principal: 'ana' },
    });

    await abortAllDurableObjects();

    expect((await post(`/approvals/${approvalId}`, { runId, approved: true }, { as: 'bob' })).status).toBe(
      404,
    );
    const decided = await post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({
      ok: true,
      value: { published: 'after restart', approvalId },
    });
    expect(await keysOf(runId)).not.toContain(`a:${approvalId}`);
    const events = eventsOf(
      await messagesUntil(await send(`/runs/${runId}/events`), (_, all) => all.length === 6),
    );
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'run.started'],
      [2, 'tool.started'],
      [3, 'approval.requested'],
      [4, 'tool.pending'],
      [5, 'approval.decided'],
      [6, 'tool.finished'],
    ]);
    const again = await post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(again.status).toBe(404);
  });

  it('a call resumed by an approval is in flight: the idle alarm waits for it and a cancel by its call id aborts it', async () => {
    const runId = await startRun();
    const approvalId = await askApproval(runId, { title: 'slow', delayMs: 60_000 }, 'pub-2');
    const resumed = post(`/approvals/${approvalId}`, { runId, approved: true });
    await until(runId, 'approval.decided', 'pub-2');
    expect(await runInDurableObject(hostOf(runId), (host) => inside(host).run.working().length > 0)).toBe(
      true,
    );
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    expect(await runInDurableObject(hostOf(runId), (host) => inside(host).run.record?.ended)).toBe(false);
    const cancel = await post(`/runs/${runId}/calls/pub-2/cancel`, {});
    expect(await cancel.json()).toEqual({ callId: 'pub-2', cancelled: true });
    expect(await (await resumed).json()).toMatchObject({
      ok: false,
      error: { kind: 'aborted', message: 'The call was cancelled by its caller.' },
    });
  });

  it('a decider that hangs up while the approved call runs cancels it (request.signal)', async () => {
    const runId = await startRun();
    const approvalId = await askApproval(runId, { title: 'slow', delayMs: 60_000 }, 'pub-5');
    const client = new AbortController();
    const resumed = post(
      `/approvals/${approvalId}`,
      { runId, approved: true },
      { signal: client.signal },
    ).catch((error: unknown) => error);
    await until(runId, 'approval.decided', 'pub-5');
    client.abort();
    await resumed;
    const failed = (await until(runId, 'tool.failed', 'pub-5')).at(-1);
    expect(failed).toMatchObject({ data: { tool: 'publish_note', error: { kind: 'aborted' } } });
  });

  it('cancelling a call that waits for approval settles it as aborted; a later approval cannot run it', async () => {
    const runId = await startRun();
    const approvalId = await askApproval(runId, { title: 'never' }, 'pub-3');
    const cancel = await post(`/runs/${runId}/calls/pub-3/cancel`, {});
    expect(await cancel.json()).toEqual({ callId: 'pub-3', cancelled: true });
    const failed = (await until(runId, 'tool.failed', 'pub-3')).at(-1);
    expect(failed).toMatchObject({ data: { tool: 'publish_note', error: { kind: 'aborted' } } });
    expect(await keysOf(runId)).not.toContain(`a:${approvalId}`);
    const late = await post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(late.status).toBe(404);
    expect(await late.json()).toMatchObject({
      kind: 'not-found',
      message: expect.stringContaining('cancelled'),
      details: { reason: 'cancelled' },
    });
    // After a restart the object no longer remembers why, and still refuses.
    await abortAllDurableObjects();
    const later = await post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(later.status).toBe(404);
    expect(((await later.json()) as { details: { reason: string } }).details.reason).toBe('unknown-approval');
    // And the call is not waiting any more.
    expect((await post(`/runs/${runId}/calls/pub-3/cancel`, {})).status).toBe(404);
  });
});

describe('endings of a run in its Durable Object', () => {
  it('DELETE /runs/:id fires the session cleanups, once, as the idle alarm does', async () => {
    const runId = await startRun();
    const closed: string[] = [];
    await runInDurableObject(hostOf(runId), (host) => {
      const runtime = (host as unknown as { runtime: { closeSession(id: string): Promise<void> } }).runtime;
      const close = runtime.closeSession.bind(runtime);
      runtime.closeSession = (id) => {
        closed.push(id);
        return close(id);
      };
    });
    expect((await send(`/runs/${runId}`, { method: 'DELETE' })).status).toBe(200);
    expect(closed).toEqual(['sess-1']);
    expect((await send(`/runs/${runId}`, { method: 'DELETE' })).status).toBe(200);
    expect(closed).toEqual(['sess-1']);
  });

  it("another identity's requests (404s) do not re-arm the run's idle alarm; its owner's do", async () => {
    const runId = await startRun();
    const soon = Date.now() + 60_000;
    await runInDurableObject(hostOf(runId), async (host, state) => {
      await state.storage.setAlarm(soon);
      (host as unknown as { alarmAt: number }).alarmAt = soon;
    });
    const approvalId = await askApproval(runId, { title: 'x' }, 'pub-4');
    await runInDurableObject(hostOf(runId), async (host, state) => {
      await state.storage.setAlarm(soon);
      (host as unknown as { alarmAt: number }).alarmAt = soon;
    });
    const bob = { as: 'bob' };
    const call = { tool: 'count_steps', args: { steps: 1, delayMs: 0 } };
    expect((await post(`/runs/${runId}/calls`, call, bob)).status).toBe(404);
    const streamed = await post(`/runs/${runId}/calls`, call, {
      ...bob,
      headers: { accept: 'text/event-stream' },
    });
    expect(streamed.status).toBe(404);
    expect((await post(`/approvals/${approvalId}`, { runId, approved: true }, bob)).status).toBe(404);
    expect(await alarmOf(runId)).toBe(soon);
    await (await post(`/runs/${runId}/calls`, call)).text(); // the answer streams: read it to the end
    expect(await alarmOf(runId)).toBeGreaterThan(soon + 10 * 60_000);
  });
});

describe('retention: an ended run is deleted after its window', () => {
  /** Moves the run's end back by `ms`, as if that much time had passed. */
  const backdate = (runId: string, ms: number) =>
    runInDurableObject(hostOf(runId), (host) => {
      const { log } = inside(host).run;
      log.record = { ...log.record, endedAt: log.record.endedAt! - ms };
    });

  it('DELETE sets the alarm for a day after the end; an early alarm keeps it; then storage goes, alarm included, and the run is a 404', async () => {
    const runId = await startRun();
    await (
      await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1, delayMs: 0 } })
    ).text(); // the answer streams: read it to the end
    await send(`/runs/${runId}`, { method: 'DELETE' });
    const endedAt = await runInDurableObject(hostOf(runId), (host) => inside(host).run.record!.endedAt!);
    expect(endedAt).toBeGreaterThan(Date.now() - 10_000);
    expect(await alarmOf(runId)).toBe(endedAt + 24 * 60 * 60_000);

    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    expect(await keysOf(runId)).toContain('run');
    expect(await alarmOf(runId)).toBe(endedAt + 24 * 60 * 60_000);

    await backdate(runId, 24 * 60 * 60_000);
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    expect(await keysOf(runId)).toEqual([]);
    expect(await alarmOf(runId)).toBeNull();
    for (const response of [
      await send(`/runs/${runId}/events`),
      await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1 } }),
      await send(`/runs/${runId}`, { method: 'DELETE' }),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ kind: 'not-found' });
    }
    // Survives a restart as nothing: the deletion was of storage, not of memory.
    await abortAllDurableObjects();
    expect((await send(`/runs/${runId}/events`)).status).toBe(404);
  });

  it('a run never ended is ended by its idle alarm, and its storage deleted a retention window later', async () => {
    const runId = await startRun();
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    const events = eventsOf(await allMessages(await send(`/runs/${runId}/events`)));
    expect(events.map((e) => e.type)).toEqual(['run.started', 'run.finished']);
    const endedAt = await runInDurableObject(hostOf(runId), (host) => inside(host).run.record!.endedAt!);
    expect(await alarmOf(runId)).toBe(endedAt + 24 * 60 * 60_000);
    await backdate(runId, 24 * 60 * 60_000);
    expect(await runDurableObjectAlarm(hostOf(runId))).toBe(true);
    expect(await keysOf(runId)).toEqual([]);
    expect((await send(`/runs/${runId}/events`)).status).toBe(404);
  });
});

describe('a run of one call (an MCP task)', () => {
  const owner = { tenant: 'default', principal: 'ana' };
  /** Polls what the run is until `done`, within a second. */
  async function infoUntil(runId: string, done: (ended: boolean) => boolean): Promise<boolean> {
    for (let tries = 0; tries < 50; tries++) {
      const info = await hostOf(runId).info(owner);
      if (info.ok && done(info.value.ended)) return info.value.ended;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`run ${runId} never came to that`);
  }

  it('ends once that call settles, its result kept', async () => {
    const runId = `one-call-${crypto.randomUUID()}`;
    expect((await hostOf(runId).start({ runId, identity: owner, endsWithCall: 'only' })).ok).toBe(true);
    await hostOf(runId).startCall(owner, {
      tool: 'count_steps',
      args: { steps: 2, delayMs: 0 },
      toolCallId: 'only',
    });
    expect(await infoUntil(runId, (ended) => ended)).toBe(true);
    const handle = await hostOf(runId).callStatus(owner, 'only');
    expect(handle).toMatchObject({ ok: true, value: { status: 'completed', result: { ok: true } } });
  });

  it('does not end while that call waits for approval, and ends once the approved call settles', async () => {
    const runId = `one-call-${crypto.randomUUID()}`;
    await hostOf(runId).start({ runId, identity: owner, endsWithCall: 'pub' });
    await hostOf(runId).startCall(owner, { tool: 'publish_note', args: { title: 't' }, toolCallId: 'pub' });
    const waiting = (await hostOf(runId).callStatus(owner, 'pub')) as Reply<CallHandle>;
    if (!waiting.ok || waiting.value.approvalId === undefined) throw new Error('expected an approval');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await infoUntil(runId, () => true)).toBe(false);
    expect((await hostOf(runId).decide(owner, waiting.value.approvalId, { approved: true })).ok).toBe(true);
    expect(await infoUntil(runId, (ended) => ended)).toBe(true);
  });
});
