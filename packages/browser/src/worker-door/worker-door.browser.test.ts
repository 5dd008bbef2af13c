import type { ToolEvent } from '@toolctx/core';
import { afterEach, describe, expect, it } from 'vitest';
import { attachStatus } from '../status/attach-status.js';
import { frames, lineTexts } from '../status/test-helpers.js';
import { connectWorker, type WorkerConnection } from './connect-worker.js';
import type { WorkerRun } from './worker-run.js';

const open: WorkerConnection[] = [];
function connect(): WorkerConnection {
  const connection = connectWorker(
    new Worker(new URL('./fixture.worker.ts', import.meta.url), { type: 'module' }),
  );
  open.push(connection);
  return connection;
}
afterEach(() => {
  for (const connection of open.splice(0)) connection.terminate();
  document.body.replaceChildren();
});

const lostReason = { kind: 'door-lost', details: { door: 'web-worker' } };

/** Resolves once `count` progress reports have arrived. */
function reports(run: WorkerRun, count: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const stop = run.events.subscribe((event) => {
      if (event.type === 'tool.progress' && ++seen === count) resolve(stop());
    });
  });
}

describe('the Web Worker door', () => {
  it('runs a tool in the Worker and returns its result, in a run with a known id', async () => {
    const run = connect().startRun();
    expect(run.runId).toMatch(/^run_/);
    expect(await run.call({ tool: 'count_words', args: { text: 'one two three' } })).toEqual({
      ok: true,
      value: 3,
      content: '3',
    });
    const door = await run.call({ tool: 'door', args: {} });
    expect(door).toMatchObject({ ok: true, value: { runId: run.runId, hasDispatch: true } });
  });

  it('delivers every event in order, from run.started to run.finished', async () => {
    const run = connect().startRun({ sessionId: 's1' });
    const events: ToolEvent[] = [];
    const iterated = (async () => {
      const seen: string[] = [];
      for await (const event of run.events) seen.push(event.type);
      return seen;
    })();
    run.events.subscribe((event) => events.push(event));
    const results = await run.callBatch([
      { tool: 'steps', args: { count: 200 } },
      { tool: 'steps', args: { count: 3 } },
    ]);
    expect(results.map((result) => result.ok && result.value)).toEqual([200, 3]);
    expect(run.stats).toEqual({ reportsDropped: 0, reportsRejected: 0 });
    await run.call({ tool: 'bad_progress', args: {} });
    expect(run.stats.reportsRejected).toBe(1);
    await run.end();
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]).toMatchObject({ type: 'run.started', data: { phase: 'act', sessionId: 's1' } });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', data: { status: 'ended', calls: 3 } });
    const firstCall = events.find((event) => event.type === 'tool.started')!.callId;
    const reports = events.filter((event) => event.callId === firstCall && event.type === 'tool.progress');
    expect(reports.map((event) => (event.data as { n: number }).n)).toEqual(
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    expect(await iterated).toHaveLength(events.length);
    expect(run.signal.aborted).toBe(true);
  });

  it("carries an abort in the page to the tool's ctx.signal in the Worker", async () => {
    const run = connect().startRun();
    const controller = new AbortController();
    const waiting = run.call({ tool: 'wait_for_abort', args: {}, signal: controller.signal });
    await new Promise<void>((resolve) => {
      const stop = run.events.subscribe((event) => {
        if (event.type === 'tool.progress') resolve(stop());
      });
    });
    controller.abort();
    expect(await waiting).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(await run.call({ tool: 'was_aborted', args: {} })).toMatchObject({ ok: true, value: true });
  });

  it('leaves an approval pending as data and resumes it from the page', async () => {
    const run = connect().startRun();
    const pending = await run.call({ tool: 'pay', args: { amount: 40 } });
    expect(pending).toMatchObject({
      ok: false,
      error: { kind: 'approval-pending', message: expect.stringContaining('on the run connectWorker gave') },
    });
    const approvalId = String(!pending.ok && pending.error.details?.approvalId);
    expect(await run.resume(approvalId, { approved: true })).toEqual({
      ok: true,
      value: { paid: 40, approvalId },
      content: JSON.stringify({ paid: 40, approvalId }),
    });
    const again = await run.call({ tool: 'pay', args: { amount: 41 } });
    const secondId = String(!again.ok && again.error.details?.approvalId);
    expect(await run.resume(secondId, { approved: false })).toMatchObject({
      ok: false,
      error: { kind: 'approval-denied' },
    });
  });

  it('cancels a call waiting for approval: true once, the Worker files it aborted, and its approval can no longer be decided', async () => {
    const run = connect().startRun();
    const events: ToolEvent[] = [];
    run.events.subscribe((event) => events.push(event));
    const pending = await run.call({ tool: 'pay', args: { amount: 40 }, toolCallId: 'pay_1' });
    const approvalId = String(!pending.ok && pending.error.details?.approvalId);
    expect(await run.cancel('nobody')).toBe(false);
    expect(await run.cancel('pay_1')).toBe(true);
    expect(await run.cancel('pay_1')).toBe(false);
    expect(await run.resume(approvalId, { approved: true })).toMatchObject({
      ok: false,
      error: { kind: 'approval-invalid' },
    });
    expect(events.filter((event) => event.callId === 'pay_1').map((event) => event.type)).toEqual([
      'tool.started',
      'approval.requested',
      'tool.pending',
      'tool.failed',
    ]);
    expect(events.find((event) => event.type === 'tool.failed')).toMatchObject({
      data: { error: { kind: 'aborted' } },
    });
  });

  it('cancels a call this page is deciding already, as a local run does, and nothing once the run has ended', async () => {
    const run = connect().startRun();
    const first = await run.call({ tool: 'approved_wait', args: {}, toolCallId: 'wait_1' });
    const decided = await run.decide(String(!first.ok && first.error.details?.approvalId), {
      approved: true,
    });
    expect(decided).toMatchObject({ taken: true, toolCallId: 'wait_1' });
    expect(await run.cancel('wait_1', 'the page changed its mind')).toBe(true);
    expect(decided.taken && (await decided.result)).toMatchObject({
      ok: false,
      error: { kind: 'aborted', message: 'The call was cancelled: the page changed its mind.' },
    });
    await run.call({ tool: 'pay', args: { amount: 2 }, toolCallId: 'pay_2' });
    await run.end();
    expect(await run.cancel('pay_2')).toBe(false);
  });

  it("answers decide as the Worker's run does: taken once with the call's result to come, then refused with its reason", async () => {
    const run = connect().startRun();
    expect(await run.pendingApprovals()).toEqual([]);
    const pending = await run.call({ tool: 'pay', args: { amount: 7 }, toolCallId: 'pay_7' });
    const approvalId = String(!pending.ok && pending.error.details?.approvalId);
    // What the person deciding is shown: the arguments the call would run with, from the Worker.
    expect(await run.pendingApprovals()).toEqual([
      { approvalId, toolCallId: 'pay_7', tool: 'pay', args: { amount: 7 }, requestedAt: expect.any(Number) },
    ]);
    const decided = await run.decide(approvalId, { approved: true });
    expect(decided).toMatchObject({ taken: true, toolCallId: 'pay_7' });
    expect(decided.taken && (await decided.result)).toMatchObject({ ok: true, value: { paid: 7 } });
    expect(await run.decide(approvalId, { approved: true })).toMatchObject({
      taken: false,
      reason: 'already-decided',
      error: { kind: 'approval-invalid' },
    });
    expect(await run.decide('appr_nobody', { approved: false })).toMatchObject({
      taken: false,
      reason: 'unknown-approval',
    });
  });

  it('sends approvals whose arguments postMessage refuses (a transform made a method) as their JSON', async () => {
    const run = connect().startRun();
    const pending = await run.call({
      tool: 'pay_noted',
      args: { amount: 3, note: 'rent' },
      toolCallId: 'noted',
    });
    const approvalId = String(!pending.ok && pending.error.details?.approvalId);
    expect(await run.pendingApprovals()).toEqual([
      {
        approvalId,
        toolCallId: 'noted',
        tool: 'pay_noted',
        args: { amount: 3, note: { text: 'rent' } },
        requestedAt: expect.any(Number),
      },
    ]);
    const decided = await run.decide(approvalId, { approved: true });
    expect(decided.taken && (await decided.result)).toMatchObject({
      ok: true,
      value: { paid: 3, note: 'RENT' },
    });
  });

  it("shows each call's handle from the Worker's run: working and waiting ones in openCalls, settled ones with their result", async () => {
    const run = connect().startRun();
    const started = reports(run, 1);
    const hanging = run.call({ tool: 'hang', args: {}, toolCallId: 'hang_1' });
    await started;
    await run.call({ tool: 'pay', args: { amount: 3 }, toolCallId: 'pay_3' });
    await run.call({ tool: 'count_words', args: { text: 'a b' }, toolCallId: 'count_1' });
    const open = await run.openCalls();
    expect(open.map((handle) => [handle.toolCallId, handle.status]).sort()).toEqual([
      ['hang_1', 'working'],
      ['pay_3', 'input_required'],
    ]);
    expect(open.find((handle) => handle.toolCallId === 'pay_3')?.approvalId).toMatch(/./);
    expect(await run.callStatus('count_1')).toMatchObject({
      tool: 'count_words',
      status: 'completed',
      result: { ok: true, value: 2 },
    });
    expect(await run.callStatus('nobody')).toBeUndefined();
    expect(await run.cancel('hang_1')).toBe(true);
    expect(await hanging).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    const cancelled = await run.callStatus('hang_1');
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      result: { ok: false, error: { kind: 'aborted' } },
    });
    expect(cancelled!.startedAt).toBeLessThanOrEqual(cancelled!.updatedAt);
  });

  it("gives a call without an id one on the page, so its signal cancels it in the Worker's run by that id", async () => {
    const run = connect().startRun();
    const events: ToolEvent[] = [];
    run.events.subscribe((event) => events.push(event));
    const controller = new AbortController();
    const started = reports(run, 1);
    const hanging = run.call({ tool: 'hang', args: {}, signal: controller.signal });
    await started;
    const callId = events.find((event) => event.type === 'tool.started')!.callId!;
    expect(callId).toMatch(/^call_[0-9a-f-]{36}$/);
    controller.abort();
    expect(await hanging).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(await run.callStatus(callId)).toMatchObject({ status: 'cancelled' });
    // Aborted before it was sent: the cancel follows the call, and the call never runs to its end.
    const early = new AbortController();
    early.abort();
    expect(await run.call({ tool: 'hang', args: {}, signal: early.signal })).toMatchObject({
      ok: false,
      error: { kind: 'aborted' },
    });
  });

  it("cancels a call only in its own run: another run's call under the same id in the same Worker goes on", async () => {
    const connection = connect();
    const [mine, theirs] = [connection.startRun(), connection.startRun()];
    const started = Promise.all([reports(mine, 1), reports(theirs, 1)]);
    const mineCall = mine.call({ tool: 'hang', args: {}, toolCallId: 'same' });
    void theirs.call({ tool: 'hang', args: {}, toolCallId: 'same' });
    await started;
    expect(await mine.cancel('same')).toBe(true);
    expect(await mineCall).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(await theirs.callStatus('same')).toMatchObject({ status: 'working' });
    expect((await theirs.openCalls()).map((handle) => handle.toolCallId)).toEqual(['same']);
  });

  it('answers every verb once the Worker is gone, without waiting: nothing decided, nothing to cancel or show', async () => {
    const connection = connect();
    const run = connection.startRun();
    const pending = await run.call({ tool: 'pay', args: { amount: 1 } });
    connection.terminate();
    const approvalId = String(!pending.ok && pending.error.details?.approvalId);
    expect(await run.decide(approvalId, { approved: true })).toMatchObject({
      taken: false,
      error: lostReason,
    });
    expect(await run.cancel('anything')).toBe(false);
    expect(await run.callStatus('anything')).toBeUndefined();
    expect(await run.openCalls()).toEqual([]);
  });

  it('cancels a resumed call in the Worker when the signal given to resume fires', async () => {
    const run = connect().startRun();
    const pending = await run.call({ tool: 'approved_wait', args: {} });
    const approvalId = String(!pending.ok && pending.error.details?.approvalId);
    const controller = new AbortController();
    const started = reports(run, 1);
    const resumed = run.resume(approvalId, { approved: true }, { signal: controller.signal });
    await started;
    controller.abort();
    expect(await resumed).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(await run.call({ tool: 'was_aborted', args: {} })).toMatchObject({ ok: true, value: true });
  });

  it('carries an ErrorInfo across intact', async () => {
    const run = connect().startRun();
    expect(await run.call({ tool: 'fail_typed', args: {} })).toEqual({
      ok: false,
      error: {
        kind: 'policy-refused',
        message: 'Not while planning.',
        retryable: false,
        details: { phase: 'plan' },
      },
    });
    expect(await run.call({ tool: 'nope', args: {} })).toMatchObject({
      ok: false,
      error: { kind: 'unknown-tool' },
    });
    expect(await run.call({ tool: 'count_words', args: { text: 1 } })).toMatchObject({
      ok: false,
      error: { kind: 'args-invalid' },
    });
  });

  it('refuses what cannot cross postMessage, as data', async () => {
    const run = connect().startRun();
    expect(await run.call({ tool: 'count_words', args: { text: () => 'x' } })).toMatchObject({
      ok: false,
      error: { kind: 'args-invalid' },
    });
    expect(await run.call({ tool: 'returns_function', args: {} })).toMatchObject({
      ok: false,
      error: { kind: 'internal', exception: 'DataCloneError' },
    });
  });

  it('settles every call in flight as failed when the Worker is terminated', async () => {
    const connection = connect();
    const run = connection.startRun();
    const events: ToolEvent[] = [];
    run.events.subscribe((event) => events.push(event));
    const started = reports(run, 2);
    const calls = run.callBatch([
      { tool: 'hang', args: {} },
      { tool: 'hang', args: {} },
    ]);
    await started;
    connection.terminate();
    const results = await calls;
    expect(results).toMatchObject([
      { ok: false, error: lostReason },
      { ok: false, error: lostReason },
    ]);
    expect(events.filter((event) => event.type === 'tool.failed')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', data: { status: 'aborted' } });
    expect(await run.call({ tool: 'count_words', args: { text: 'a' } })).toMatchObject({
      ok: false,
      error: lostReason,
    });
    await run.end(); // resolves, never hangs
  });

  it('notices a terminate() it did not make, through the Web Lock the Worker held', async () => {
    const worker = new Worker(new URL('./fixture.worker.ts', import.meta.url), { type: 'module' });
    const connection = connectWorker(worker);
    const run = connection.startRun();
    const started = reports(run, 1);
    const call = run.call({ tool: 'hang', args: {} });
    await started;
    worker.terminate();
    expect(await call).toMatchObject({
      ok: false,
      error: { ...lostReason, details: { cause: 'terminated' } },
    });
    expect(connection.lost?.kind).toBe('door-lost');
  });

  it('settles every call in flight as failed when the Worker throws an uncaught error', async () => {
    const connection = connect();
    const run = connection.startRun();
    const element = document.createElement('div');
    document.body.append(element);
    attachStatus(element, run);
    const [crash, hang] = await run.callBatch([
      { tool: 'crash_later', args: {} },
      { tool: 'hang', args: {} },
    ]);
    expect(crash).toMatchObject({
      ok: false,
      error: { ...lostReason, details: { cause: 'uncaught-error' } },
    });
    expect(hang).toMatchObject({ ok: false, error: lostReason });
    expect(JSON.stringify(crash)).not.toContain('uncaught in the Worker');
    await frames();
    expect(lineTexts(element)).toEqual([
      'crash_later stopped: its worker is gone',
      'hang stopped: its worker is gone',
    ]);
  });
});
