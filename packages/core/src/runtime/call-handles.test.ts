import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import { createMemoryPendingApprovals } from '../approval/pending-approvals.js';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import { withParts } from '../content/content-part.js';
import type { ToolResult } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { type CallRecord, createMemoryCallStore } from './call-book.js';
import { createRuntime } from './create-runtime.js';

const identity = { tenant: 'acme', principal: 'ana' };

function setup() {
  const events: ToolEvent[] = [];
  let release: (() => void) | undefined;
  const runs: string[] = [];
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes.',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => text,
  });
  const slow = defineTool({
    name: 'slow',
    description: 'Waits until released or cancelled.',
    inputSchema: z.object({}),
    execute: (_args, ctx) =>
      new Promise((resolve, reject) => {
        release = () => resolve('released');
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
      }),
  });
  const boom = defineTool({
    name: 'boom',
    description: 'Fails.',
    inputSchema: z.object({}),
    execute: () => {
      throw new TypeError('no');
    },
  });
  const pay = defineTool({
    name: 'pay',
    description: 'Pays after approval.',
    inputSchema: z.object({ amount: z.number() }),
    effect: 'write',
    needsApproval: true,
    execute: ({ amount }) => ({ paid: amount }),
  });
  const sync = defineTool({
    name: 'sync',
    description: 'Safe to run again.',
    inputSchema: z.object({ n: z.number() }),
    effect: 'write',
    idempotent: true,
    retry: { attempts: 3 },
    execute: ({ n }) => {
      runs.push(`sync ${n}`);
      return n * 2;
    },
  });
  const charge = defineTool({
    name: 'charge',
    description: 'Not safe to run again.',
    inputSchema: z.object({}),
    effect: 'send',
    execute: () => 'charged',
  });
  const runtime = () =>
    createRuntime({
      tools: [echo, slow, boom, pay, sync, charge],
      approval: createMemoryApprovalPort(),
      sinks: [(event) => void events.push(event)],
    });
  return { events, runtime, runs, release: () => release?.() };
}

const pendingId = (result: ToolResult) => String(!result.ok && result.error.details?.approvalId);

describe('call handles: every call has a status and, settled, its result', () => {
  it('a call is working while it runs and completed with its result after', async () => {
    const { runtime, release } = setup();
    const run = runtime().startRun({ runId: 'run_1', identity });
    const done = run.call({ tool: 'slow', args: {}, toolCallId: 'c1' });
    await Promise.resolve();
    expect(run.callStatus('c1')).toMatchObject({ toolCallId: 'c1', tool: 'slow', status: 'working' });
    expect(run.callStatus('c1')?.result).toBeUndefined();
    expect(run.openCalls().map((handle) => handle.toolCallId)).toEqual(['c1']);
    release();
    const result = await done;
    const handle = run.callStatus('c1');
    expect(handle).toMatchObject({ status: 'completed', result });
    expect(handle?.updatedAt).toBeGreaterThanOrEqual(handle?.startedAt ?? Number.POSITIVE_INFINITY);
    expect(run.openCalls()).toEqual([]);
    // A trivial call, settled before run.call returns, has its handle too; its arguments are not in it.
    await run.call({ tool: 'echo', args: { text: 'hi' }, toolCallId: 'c2' });
    expect(run.callStatus('c2')).toEqual({
      toolCallId: 'c2',
      tool: 'echo',
      status: 'completed',
      startedAt: expect.any(Number),
      updatedAt: expect.any(Number),
      result: { ok: true, value: 'hi', content: 'hi' },
    });
    expect(run.callStatus('nope')).toBeUndefined();
  });

  it('failed and cancelled are told apart; run.cancel takes a reason and answers whether there was a call', async () => {
    const { runtime } = setup();
    const run = runtime().startRun({ runId: 'run_1', identity });
    await run.call({ tool: 'boom', args: {}, toolCallId: 'f' });
    expect(run.callStatus('f')).toMatchObject({ status: 'failed', result: { ok: false } });
    const done = run.call({ tool: 'slow', args: {}, toolCallId: 's' });
    await Promise.resolve();
    expect(run.cancel('s', 'the user left')).toBe(true);
    const result = await done;
    expect(result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(!result.ok && result.error.message).toContain('the user left');
    expect(run.callStatus('s')).toMatchObject({ status: 'cancelled', result });
    expect(run.cancel('s')).toBe(false);
    expect(run.cancel('never')).toBe(false);
  });

  it('a call that waits for approval is input_required with its approval; decide answers before the call runs', async () => {
    const { runtime, events } = setup();
    const run = runtime().startRun({ runId: 'run_1', identity });
    const approvalId = pendingId(await run.call({ tool: 'pay', args: { amount: 5 }, toolCallId: 'p' }));
    expect(run.callStatus('p')).toMatchObject({ status: 'input_required', approvalId });
    expect(run.callStatus('p')?.result).toBeUndefined();
    expect(run.openCalls()).toHaveLength(1);
    const decided = run.decide(approvalId, { approved: true });
    if (!decided.taken) throw new Error('the decision was refused');
    expect(decided.toolCallId).toBe('p');
    // Taken, and not run yet: the decision is answered first.
    expect(events.some((event) => event.type === 'tool.finished' && event.callId === 'p')).toBe(false);
    expect(run.callStatus('p')).toMatchObject({ status: 'working' });
    expect(await decided.result).toEqual({ ok: true, value: { paid: 5 }, content: '{"paid":5}' });
    expect(run.callStatus('p')).toMatchObject({ status: 'completed', result: { ok: true } });
    const again = run.decide(approvalId, { approved: true });
    expect(again).toMatchObject({
      taken: false,
      reason: 'already-decided',
      error: { kind: 'approval-invalid' },
    });
    expect(run.decide('appr_unknown', { approved: true })).toMatchObject({
      taken: false,
      reason: 'unknown-approval',
    });
    const other = pendingId(await run.call({ tool: 'pay', args: { amount: 1 }, toolCallId: 'q' }));
    expect(run.decide(other, { approved: 'yes' } as never)).toMatchObject({
      taken: false,
      reason: 'invalid-decision',
    });
    expect(run.callStatus('q')?.status).toBe('input_required');
    const denied = run.decide(other, { approved: false, reason: 'too much' });
    expect(denied.taken && (await denied.result)).toMatchObject({
      ok: false,
      error: { kind: 'approval-denied' },
    });
    expect(run.callStatus('q')?.status).toBe('failed');
  });

  it('run.cancel settles a call waiting for approval, and cancels a resumed call by its approval id', async () => {
    const { runtime } = setup();
    const run = runtime().startRun({ runId: 'run_1', identity });
    const waiting = pendingId(await run.call({ tool: 'pay', args: { amount: 2 }, toolCallId: 'w' }));
    expect(run.cancel('w')).toBe(true);
    expect(run.callStatus('w')).toMatchObject({
      status: 'cancelled',
      result: { error: { kind: 'aborted' } },
    });
    expect(run.decide(waiting, { approved: true })).toMatchObject({ taken: false, reason: 'cancelled' });
    const slowPay = defineTool({
      name: 'slow_pay',
      description: 'Pays slowly.',
      inputSchema: z.object({}),
      needsApproval: true,
      execute: (_args, ctx) =>
        new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('x')))),
    });
    const other = createRuntime({ tools: [slowPay], approval: createMemoryApprovalPort() }).startRun({
      runId: 'run_2',
      identity,
    });
    const approvalId = pendingId(await other.call({ tool: 'slow_pay', args: {}, toolCallId: 'r' }));
    const decided = other.decide(approvalId, { approved: true });
    if (!decided.taken) throw new Error('refused');
    expect(other.cancel(approvalId)).toBe(true);
    expect(await decided.result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(other.callStatus('r')?.status).toBe('cancelled');
  });

  it('openCalls lists the calls not settled, the oldest first, whatever order their store keeps', async () => {
    const { runtime, release } = setup();
    const listed: string[] = [];
    const calls = createMemoryCallStore();
    // A store that lists in reverse, as a key-ordered one may.
    const reversed = { ...calls, open: () => [...calls.open()].reverse() };
    const run = runtime().startRun({ runId: 'run_1', identity, calls: reversed });
    await run.call({ tool: 'pay', args: { amount: 1 }, toolCallId: 'z_first' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    void run.call({ tool: 'slow', args: {}, toolCallId: 'a_second' });
    for (const handle of run.openCalls()) listed.push(`${handle.toolCallId} ${handle.status}`);
    expect(listed).toEqual(['z_first input_required', 'a_second working']);
    release();
  });

  it('a second call under a known id is refused without touching the first', async () => {
    const { runtime, release } = setup();
    const run = runtime().startRun({ runId: 'run_1', identity });
    const first = run.call({ tool: 'slow', args: {}, toolCallId: 'twin' });
    const twin = await run.call({ tool: 'echo', args: { text: 'x' }, toolCallId: 'twin' });
    expect(twin).toMatchObject({ ok: false, error: { kind: 'conflict', details: { toolCallId: 'twin' } } });
    expect(run.callStatus('twin')).toMatchObject({ tool: 'slow', status: 'working' });
    release();
    await first;
    const late = await run.call({ tool: 'echo', args: { text: 'x' }, toolCallId: 'twin' });
    expect(late).toMatchObject({ ok: false, error: { kind: 'conflict' } });
    expect(run.callStatus('twin')).toMatchObject({ tool: 'slow', status: 'completed' });
  });

  it('the run’s end settles open calls as cancelled, waiting ones included', async () => {
    const { runtime } = setup();
    const run = runtime().startRun({ runId: 'run_1', identity });
    void run.call({ tool: 'slow', args: {}, toolCallId: 's' });
    await run.call({ tool: 'pay', args: { amount: 3 }, toolCallId: 'p' });
    await run.end();
    expect(run.callStatus('s')?.status).toBe('cancelled');
    expect(run.callStatus('p')?.status).toBe('cancelled');
    expect(run.openCalls()).toEqual([]);
  });

  /** A record of a call of tool `t`, as a run files it. */
  const record = (id: string, status: CallRecord['status']): CallRecord => ({
    toolCallId: id,
    tool: 't',
    status,
    startedAt: 0,
    updatedAt: 0,
    iteration: 1,
  });

  it('a memory store keeps every open call and the newest settled ones', () => {
    const store = createMemoryCallStore(2);
    store.put(record('open', 'working'));
    for (const id of ['a', 'b', 'c']) store.put(record(id, 'completed'));
    expect(store.get('a')).toBeUndefined();
    expect(store.get('b')?.status).toBe('completed');
    expect(store.get('open')?.status).toBe('working');
    expect([...store.open()].map((open) => open.toolCallId)).toEqual(['open']);
  });

  it('a memory store finds settled records whether looked up before or after they settled, and forgets the oldest', () => {
    const store = createMemoryCallStore(3);
    for (const id of ['a', 'b']) store.put(record(id, 'completed'));
    store.put(record('a', 'failed'));
    // The first look-up finds the newest record of an id filed twice.
    expect(store.get('a')?.status).toBe('failed');
    store.put(record('w', 'working'));
    store.put(record('w', 'completed'));
    expect(store.get('w')?.status).toBe('completed');
    expect([...store.open()]).toEqual([]);
    // Three kept: 'b' (the oldest) is gone, the newer 'a' is not.
    store.put(record('c', 'completed'));
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')?.status).toBe('failed');
    expect(store.get('c')?.status).toBe('completed');
  });
});

describe('honest recovery: calls a restart cut off are settled when the run is taken up again', () => {
  /** What a host's storage kept of a run whose process died: its call store, approvals and last seq. */
  function crashed() {
    const calls = createMemoryCallStore();
    const pendingApprovals = createMemoryPendingApprovals();
    const at = Date.now() - 1000;
    const cut = (toolCallId: string, tool: string, args: unknown, extra: Partial<CallRecord> = {}) =>
      calls.put({
        toolCallId,
        tool,
        status: 'working',
        startedAt: at,
        updatedAt: at,
        iteration: 1,
        args,
        ...extra,
      });
    return { calls, pendingApprovals, cut };
  }

  it('a call of a tool that is not idempotent fails as interrupted (retryable), with tool.failed', async () => {
    const { runtime, events } = setup();
    const { calls, pendingApprovals, cut } = crashed();
    cut('c1', 'charge', {});
    cut('child', 'echo', { text: 'x' }, { parentId: 'c1' });
    const run = runtime().startRun({
      runId: 'run_1',
      identity,
      calls,
      pendingApprovals,
      continuesAfterSeq: 4,
    });
    expect(run.callStatus('c1')).toMatchObject({
      status: 'failed',
      result: { ok: false, error: { kind: 'interrupted', retryable: true } },
    });
    expect(run.callStatus('child')?.result).toMatchObject({ error: { kind: 'interrupted' } });
    const failed = events.filter((event) => event.type === 'tool.failed');
    expect(failed.map((event) => [event.callId, event.seq])).toEqual([
      ['c1', 5],
      ['child', 6],
    ]);
    expect(events.some((event) => event.type === 'run.started')).toBe(false);
    expect(run.openCalls()).toEqual([]);
  });

  it('an idempotent call runs again, each attempt a tool.retry event, up to the attempts it declares', async () => {
    const { runtime, events, runs } = setup();
    const { calls, pendingApprovals, cut } = crashed();
    cut('again', 'sync', { n: 21 });
    const run = runtime().startRun({
      runId: 'run_1',
      identity,
      calls,
      pendingApprovals,
      continuesAfterSeq: 2,
    });
    expect(run.callStatus('again')).toMatchObject({ status: 'working', attempts: 2 });
    await vi.waitFor(() => expect(run.callStatus('again')?.status).toBe('completed'));
    expect(runs).toEqual(['sync 21']);
    expect(run.callStatus('again')).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { ok: true, value: 42 },
    });
    const retry = events.find((event) => event.type === 'tool.retry');
    expect(retry?.data).toMatchObject({ tool: 'sync', attempt: 2, error: { kind: 'interrupted' } });
    // Cut off on its last attempt (3 of 3): no more runs, it fails as interrupted.
    const spent = crashed();
    spent.cut('spent', 'sync', { n: 1 }, { attempts: 3 });
    const later = runtime().startRun({ runId: 'run_2', identity, ...spent, continuesAfterSeq: 9 });
    expect(later.callStatus('spent')?.result).toMatchObject({ ok: false, error: { kind: 'interrupted' } });
    expect(runs).toEqual(['sync 21']);
  });

  it('a call waiting for approval is not cut off by a restart: it can still be decided', async () => {
    const { runtime } = setup();
    const calls = createMemoryCallStore();
    const pendingApprovals = createMemoryPendingApprovals();
    const first = runtime().startRun({ runId: 'run_1', identity, calls, pendingApprovals });
    const approvalId = pendingId(await first.call({ tool: 'pay', args: { amount: 9 }, toolCallId: 'p' }));
    const again = runtime().startRun({
      runId: 'run_1',
      identity,
      calls,
      pendingApprovals,
      continuesAfterSeq: 3,
    });
    expect(again.callStatus('p')?.status).toBe('input_required');
    const decided = again.decide(approvalId, { approved: true });
    expect(decided.taken && (await decided.result)).toMatchObject({ ok: true, value: { paid: 9 } });
    expect(again.callStatus('p')?.status).toBe('completed');
  });

  it('keeps a result over the output budget as the artifact holding its value, and links it', async () => {
    const rows = defineTool({
      name: 'rows',
      description: 'Returns many rows.',
      inputSchema: z.object({ n: z.number() }),
      execute: ({ n }) => Array.from({ length: n }, (_, i) => ({ i, name: `row ${i}` })),
    });
    const text = defineTool({
      name: 'text',
      description: 'Returns a long text.',
      inputSchema: z.object({ n: z.number() }),
      execute: ({ n }) => 'é'.repeat(n),
    });
    const picture = defineTool({
      name: 'picture',
      description: 'Returns a big image part.',
      inputSchema: z.object({}),
      execute: () =>
        withParts([{ type: 'image', mediaType: 'image/png', data: 'A'.repeat(40_000) }], { w: 1 }),
    });
    const store = createMemoryArtifactStore();
    const scope = { ...identity, conversation: '' };
    const runtime = createRuntime({
      tools: [rows, text, picture],
      artifacts: store,
      outputBudgetBytes: 1_000,
    });
    const run = runtime.startRun({ runId: 'run_big', identity });

    const many = await run.call({ tool: 'rows', args: { n: 500 }, toolCallId: 'r' });
    if (!many.ok) throw new Error('expected a result');
    const kept = run.callStatus('r')?.result;
    // The handle keeps the transcript copy and the link, not the value a second time.
    expect(kept).toEqual({ ok: true, linked: true, content: many.content, spilled: many.spilled });
    const saved = await store.get(scope, many.spilled!.ref!);
    expect(saved?.meta).toMatchObject({ kind: 'tool-result/rows', mediaType: 'application/json' });
    expect(JSON.parse(saved!.data as string)).toEqual(many.value);

    // A string value is kept as its text.
    const long = await run.call({ tool: 'text', args: { n: 2_000 }, toolCallId: 't' });
    const link = run.callStatus('t')?.result;
    if (!long.ok || !link?.ok || !('linked' in link)) throw new Error('expected a linked result');
    const savedText = await store.get(scope, link.spilled.ref);
    expect(savedText?.meta.mediaType).toMatch(/^text\/plain/);
    expect(savedText?.data).toBe(long.value);

    // A small result, or one with content parts, is kept whole.
    await run.call({ tool: 'rows', args: { n: 1 }, toolCallId: 'small' });
    expect(run.callStatus('small')?.result).toEqual({
      ok: true,
      value: [{ i: 0, name: 'row 0' }],
      content: expect.any(String),
    });
    const withImage = await run.call({ tool: 'picture', args: {}, toolCallId: 'p' });
    expect(run.callStatus('p')?.result).toEqual(withImage);
  });

  it('keeps a result over the budget whole when there is no artifact store to link it to', async () => {
    const text = defineTool({
      name: 'text',
      description: 'Returns a long text.',
      inputSchema: z.object({}),
      execute: () => 'x'.repeat(5_000),
    });
    const run = createRuntime({ tools: [text], outputBudgetBytes: 1_000 }).startRun({ identity });
    const result = await run.call({ tool: 'text', args: {}, toolCallId: 'x' });
    expect(result).toMatchObject({ ok: true, spilled: { bytes: 5_000 } });
    expect(run.callStatus('x')?.result).toEqual(result);
    expect(run.callStatus('x')?.result).toMatchObject({ value: 'x'.repeat(5_000) });
  });
});
