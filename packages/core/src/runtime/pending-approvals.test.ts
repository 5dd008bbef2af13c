import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import { createMemoryPendingApprovals, type PendingApproval } from '../approval/pending-approvals.js';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ToolResult } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

const identity = { tenant: 'acme', principal: 'ana' };

function pendingId(result: ToolResult): string {
  if (result.ok || result.error.kind !== 'approval-pending') throw new Error('expected a pending approval');
  return String(result.error.details?.approvalId);
}

function setup() {
  const executed: unknown[] = [];
  const pay = defineTool({
    name: 'pay',
    description: 'Pays an amount, after approval.',
    inputSchema: z.object({ amount: z.number(), note: z.string().default('') }),
    effect: 'write',
    needsApproval: true,
    async execute({ amount }, ctx) {
      executed.push(amount);
      if (amount < 0) await new Promise((_, reject) => ctx.signal.addEventListener('abort', reject));
      return { paid: amount, approvalId: ctx.approval?.approvalId };
    },
  });
  const events: ToolEvent[] = [];
  // A fresh runtime each time: what a host has after a restart (no tokens, no live run).
  const runtime = () =>
    createRuntime({
      tools: [pay],
      approval: createMemoryApprovalPort(),
      sinks: [(e) => void events.push(e)],
    });
  return { executed, events, runtime };
}

describe('pending approvals: one store, the run’s', () => {
  it('keeps what was asked in the store the host gave, and a run started again on it resumes the call', async () => {
    const { executed, events, runtime } = setup();
    const store = createMemoryPendingApprovals();
    const first = runtime().startRun({ runId: 'run_1', identity, pendingApprovals: store });
    const waiting = await first.call({ tool: 'pay', args: { amount: 7 }, toolCallId: 'call_a' });
    // In process, the host decides: the answer names run.resume.
    expect(waiting).toMatchObject({
      error: { message: expect.stringContaining('run.resume(approvalId, decision)') },
    });
    const approvalId = pendingId(waiting);
    const [kept] = [...store.list()];
    expect(kept).toEqual({
      approvalId,
      runId: 'run_1',
      callId: 'call_a',
      toolName: 'pay',
      args: { amount: 7, note: '' },
      argsHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      owner: identity,
      iteration: 1,
      requestedAt: expect.any(Number),
    } satisfies PendingApproval);
    // Survives structured cloning, as a host's storage does to it.
    store.put(structuredClone(kept!));

    // The host restarted: a new runtime, the run started again under its id with the same store.
    events.length = 0;
    const again = runtime().startRun({ runId: 'run_1', identity, pendingApprovals: store });
    const result = await again.resume(approvalId, { approved: true, reason: 'ok' });
    expect(result).toMatchObject({ ok: true, value: { paid: 7, approvalId } });
    expect(executed).toEqual([7]);
    expect([...store.list()]).toEqual([]);
    const ofCall = events.filter((e) => e.callId === 'call_a').map((e) => e.type);
    expect(ofCall).toEqual(['approval.decided', 'tool.finished']);
    expect(await again.resume(approvalId, { approved: true })).toMatchObject({
      ok: false,
      error: { kind: 'approval-invalid', details: { reason: 'already-decided' } },
    });
  });

  it('re-checks the arguments against the approved hash: changed in storage, the call does not run', async () => {
    const { executed, runtime } = setup();
    const store = createMemoryPendingApprovals();
    const run = runtime().startRun({ runId: 'run_1', identity, pendingApprovals: store });
    const approvalId = pendingId(await run.call({ tool: 'pay', args: { amount: 7 } }));
    store.put({ ...store.get(approvalId)!, args: { amount: 7_000, note: '' } });
    const result = await run.resume(approvalId, { approved: true });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'approval-invalid', details: { reason: 'args-changed' } },
    });
    expect(executed).toEqual([]);
  });

  it('refuses unknown ids, malformed decisions (staying pending) and another owner’s run on the same store', async () => {
    const { runtime } = setup();
    const store = createMemoryPendingApprovals();
    const run = runtime().startRun({ runId: 'run_1', identity, pendingApprovals: store });
    const approvalId = pendingId(await run.call({ tool: 'pay', args: { amount: 1 } }));
    expect(await run.resume('apr_nope', { approved: true })).toMatchObject({
      error: {
        kind: 'approval-invalid',
        details: { reason: 'unknown-approval' },
        message: /details.approvalId/,
      },
    });
    expect(await run.resume(approvalId, { approved: 'yes' } as never)).toMatchObject({
      error: { details: { reason: 'invalid-decision' } },
    });
    const bob = runtime().startRun({
      runId: 'run_1',
      identity: { tenant: 'acme', principal: 'bob' },
      pendingApprovals: store,
    });
    expect(await bob.resume(approvalId, { approved: true })).toMatchObject({
      error: { details: { reason: 'other-run' } },
    });
    expect(store.get(approvalId)).toBeDefined();
    expect(await run.resume(approvalId, { approved: false })).toMatchObject({
      error: { kind: 'approval-denied' },
    });
  });

  it('cancel settles the waiting call as aborted; its approval can no longer run it', async () => {
    const { executed, events, runtime } = setup();
    const store = createMemoryPendingApprovals();
    const run = runtime().startRun({ runId: 'run_1', identity, pendingApprovals: store });
    const approvalId = pendingId(await run.call({ tool: 'pay', args: { amount: 3 }, toolCallId: 'call_c' }));
    expect(run.cancel('call_other')).toBe(false);
    expect(run.cancel('call_c')).toBe(true);
    expect(run.cancel('call_c')).toBe(false);
    expect(store.get(approvalId)).toBeUndefined();
    expect(events.filter((e) => e.callId === 'call_c').at(-1)).toMatchObject({
      type: 'tool.failed',
      data: { error: { kind: 'aborted' } },
    });
    expect(await run.resume(approvalId, { approved: true })).toMatchObject({
      ok: false,
      error: { kind: 'approval-invalid', details: { reason: 'cancelled' }, message: /cancelled/ },
    });
    expect(executed).toEqual([]);
  });

  it('a resumed call is in flight: its signal cancels it, and the run’s end waits for it', async () => {
    const { runtime } = setup();
    const run = runtime().startRun({ identity });
    const first = pendingId(await run.call({ tool: 'pay', args: { amount: -1 } }));
    const caller = new AbortController();
    const resumed = run.resume(first, { approved: true }, { signal: caller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    caller.abort();
    expect(await resumed).toMatchObject({ ok: false, error: { kind: 'aborted', message: /its caller/ } });

    const second = pendingId(await run.call({ tool: 'pay', args: { amount: -2 } }));
    const running = run.resume(second, { approved: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await run.end();
    expect(await running).toMatchObject({ ok: false, error: { kind: 'aborted', message: /run ended/ } });
  });

  it('the run’s end drops its pending approvals from the store and settles each waiting call as aborted', async () => {
    const { runtime } = setup();
    const store = createMemoryPendingApprovals();
    const run = runtime().startRun({ runId: 'run_1', identity, pendingApprovals: store });
    const events: ToolEvent[] = [];
    run.events.subscribe((event) => events.push(event));
    pendingId(await run.call({ tool: 'pay', args: { amount: 1 }, toolCallId: 'waits' }));
    expect([...store.list()]).toHaveLength(1);
    await run.end();
    expect([...store.list()]).toEqual([]);
    const ofCall = events.filter((event) => event.callId === 'waits').map((event) => event.type);
    expect(ofCall.at(-1)).toBe('tool.failed');
    expect(
      events.find((event) => event.type === 'tool.failed' && event.callId === 'waits')?.data,
    ).toMatchObject({
      error: { kind: 'aborted', message: /run ended/ },
    });
    expect(events.at(-1)?.type).toBe('run.finished');
  });

  it('keeps a wanted artifact as its ref, not its data, and resolves it again when the call resumes', async () => {
    const artifacts = createMemoryArtifactStore();
    const publish = defineTool({
      name: 'publish',
      description: 'Publishes a note artifact, after approval.',
      inputSchema: z.object({ note: z.string() }),
      wants: { note: 'note' },
      needsApproval: true,
      execute: ({ note }) => ({ published: note }),
    });
    const store = createMemoryPendingApprovals();
    const runtime = createRuntime({ tools: [publish], artifacts, approval: createMemoryApprovalPort() });
    const run = runtime.startRun({ runId: 'run_w', identity, pendingApprovals: store });
    const scope = { tenant: 'acme', principal: 'ana', conversation: '' };
    const { ref } = await artifacts.put(scope, { kind: 'note', data: 'the whole note' });
    const approvalId = pendingId(await run.call({ tool: 'publish', args: { note: ref } }));
    expect(store.get(approvalId)?.args).toEqual({ note: ref });
    expect(await run.resume(approvalId, { approved: true })).toMatchObject({
      ok: true,
      value: { published: 'the whole note' },
    });
  });

  it('a store that cannot keep the call: it fails, saying so, its log ends with tool.failed, and nothing waits', async () => {
    const { executed, events, runtime } = setup();
    const memory = createMemoryPendingApprovals();
    const full = {
      ...memory,
      put: () => {
        throw new RangeError('SQLITE_FULL: database or disk is full');
      },
    };
    const run = runtime().startRun({ runId: 'run_f', identity, pendingApprovals: full });
    const result = await run.call({ tool: 'pay', args: { amount: 7 }, toolCallId: 'call_f' });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'internal',
        message: expect.stringMatching(
          /^"pay" needs a person's approval, but the run could not keep the call/,
        ),
        exception: 'RangeError',
        retryable: true,
      },
    });
    // The storage's own words are not passed on.
    expect(JSON.stringify(result)).not.toContain('SQLITE');
    expect(executed).toEqual([]);
    expect([...memory.list()]).toEqual([]);
    const ofCall = events.filter((event) => event.callId === 'call_f').map((event) => event.type);
    expect(ofCall).toEqual(['tool.started', 'approval.requested', 'tool.failed']);
    await run.end();
  });

  it('lists what the calls waiting for approval would run with, the oldest first, until decided or cancelled; another run’s or another owner’s are not shown', async () => {
    const { runtime } = setup();
    const store = createMemoryPendingApprovals();
    const rt = runtime();
    const run = rt.startRun({ runId: 'run_l', identity, pendingApprovals: store });
    expect(run.pendingApprovals()).toEqual([]);
    const first = pendingId(await run.call({ tool: 'pay', args: { amount: 7 }, toolCallId: 'call_1' }));
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = pendingId(
      await run.call({ tool: 'pay', args: { amount: 9, note: 'rent' }, toolCallId: 'call_2' }),
    );
    // The same store shared with another run, and with a run of the same id for someone else.
    const other = rt.startRun({ runId: 'run_o', identity, pendingApprovals: store });
    pendingId(await other.call({ tool: 'pay', args: { amount: 1 }, toolCallId: 'call_o' }));
    const stranger = rt.startRun({
      runId: 'run_l',
      identity: { tenant: 'acme', principal: 'eve' },
      pendingApprovals: store,
    });
    const open = run.pendingApprovals();
    expect(open).toEqual([
      {
        approvalId: first,
        toolCallId: 'call_1',
        tool: 'pay',
        args: { amount: 7, note: '' },
        requestedAt: expect.any(Number),
      },
      {
        approvalId: second,
        toolCallId: 'call_2',
        tool: 'pay',
        args: { amount: 9, note: 'rent' },
        requestedAt: expect.any(Number),
      },
    ]);
    expect(open[0]!.requestedAt).toBeLessThan(open[1]!.requestedAt);
    expect(stranger.pendingApprovals()).toEqual([]);
    expect(other.pendingApprovals().map((approval) => approval.toolCallId)).toEqual(['call_o']);
    // Plain data: what a door sends as JSON.
    expect(JSON.parse(JSON.stringify(open))).toEqual(open);

    expect(run.decide(first, { approved: false }).taken).toBe(true);
    expect(run.cancel('call_2')).toBe(true);
    expect(run.pendingApprovals()).toEqual([]);
    // A run with no store given has none to list, and makes none to say so.
    expect(rt.startRun({ runId: 'run_e', identity }).pendingApprovals()).toEqual([]);
    await Promise.all([run.end(), other.end(), stranger.end()]);
  });
});
