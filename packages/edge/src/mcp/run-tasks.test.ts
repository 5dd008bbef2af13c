import { createRuntime, defineTool } from '@toolctx/core';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryRunDirectory, type DoorRun, type RunDirectory } from '../run-host/index.js';
import { runTaskHost } from './run-tasks.js';

// MCP tasks in runs, on the in-memory run directory (the Durable Object one answers the same
// verbs over RPC): a task waiting for approval asks in the tool's words, with its arguments.
const publish = defineTool({
  name: 'publish_note',
  title: 'Publish a note',
  description: 'Publishes a note for everyone to read.',
  inputSchema: z.object({ text: z.string() }),
  effect: 'send',
  needsApproval: true,
  execute: async ({ text }) => ({ published: text }),
});
const runtime = createRuntime({ tools: [publish], approval: createMemoryApprovalPort() });
/** A call that runs until it is cancelled. */
const sleep = defineTool({
  name: 'sleep',
  description: 'Sleeps until cancelled.',
  inputSchema: z.object({}),
  execute: (_args, ctx) =>
    new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
});
const ana = { tenant: 'acme', principal: 'ana' };
const owner = JSON.stringify(ana);

describe('runTaskHost', () => {
  it('a task waiting for approval asks with the arguments it would run with, on every tasks/get', async () => {
    const tasks = runTaskHost(createMemoryRunDirectory({ runtime }), runtime);
    const args = { text: 'The launch is on Tuesday' };
    const started = await tasks.start({
      owner,
      identity: ana,
      phase: 'act',
      tool: 'publish_note',
      args,
      answers: {},
      waitMs: 50,
    });
    expect(started.status).toBe('input_required');
    const got = await tasks.get(owner, started.taskId);
    expect(got?.status).toBe('input_required');
    const [ask] = got?.asks ?? [];
    expect(ask?.key).toBe('toolctx.approval');
    expect(ask?.message).toContain('"Publish a note" (publish_note)');
    expect(ask?.message).toContain('With:\n- text: The launch is on Tuesday');
    expect(ask?.message).toBe(started.asks?.[0]?.message);
  });

  it("another identity learns nothing of a task's approval", async () => {
    const runs = createMemoryRunDirectory({ runtime });
    const tasks = runTaskHost(runs, runtime);
    const started = await tasks.start({
      owner,
      identity: ana,
      phase: 'act',
      tool: 'publish_note',
      args: { text: 'secret' },
      answers: {},
      waitMs: 50,
    });
    const approvalId = (await tasks.get(owner, started.taskId))?.asks?.[0]?.askId ?? '';
    expect(approvalId).not.toBe('');
    const bob = { tenant: 'acme', principal: 'bob' };
    expect(await tasks.get(JSON.stringify(bob), started.taskId)).toBeUndefined();
    const asked = await runs.get(started.taskId).pendingApproval(bob, approvalId);
    expect(asked).toMatchObject({ ok: false, status: 404 });
    expect(JSON.stringify(asked)).not.toContain('secret');
    expect(await runs.get(started.taskId).pendingApproval(ana, approvalId)).toMatchObject({
      ok: true,
      value: { approvalId, tool: 'publish_note', args: { text: 'secret' } },
    });
    expect(await runs.get(started.taskId).pendingApproval(ana, 'appr_nope')).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it('waits out the window on news from the run, not by polling: one request per change, the answer as soon as the call settles', async () => {
    const slow = defineTool({
      name: 'slow_add',
      description: 'Adds after a pause.',
      inputSchema: z.object({ a: z.number(), b: z.number(), ms: z.number() }),
      execute: async ({ a, b, ms }) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        return { sum: a + b };
      },
    });
    const tools = createRuntime({ tools: [slow, publish], approval: createMemoryApprovalPort() });
    const { runs, asked } = counted(createMemoryRunDirectory({ runtime: tools }));
    const tasks = runTaskHost(runs, tools);
    const start = { owner, identity: ana, phase: 'act' as const, answers: {} };
    const done = await tasks.start({
      ...start,
      tool: 'slow_add',
      args: { a: 1, b: 2, ms: 120 },
      waitMs: 5_000,
    });
    expect(done).toMatchObject({ status: 'completed', result: { ok: true, value: { sum: 3 } } });
    // The old window asked every 10, 20, 40, 80 ms… (4 reads by 120 ms); now one wait, woken by the end.
    expect(asked).toEqual({ startCall: 1, nextCallStatus: 1 });

    // A call that comes to wait for a person ends the window at once, with what it asks.
    for (const verb of Object.keys(asked)) delete asked[verb];
    const waiting = await tasks.start({
      ...start,
      tool: 'publish_note',
      args: { text: 'hi' },
      waitMs: 5_000,
    });
    expect(waiting.status).toBe('input_required');
    expect(asked.nextCallStatus ?? 0).toBeLessThanOrEqual(1);

    // One still running when the window closes is a task, working.
    const later = await tasks.start({
      ...start,
      tool: 'slow_add',
      args: { a: 1, b: 2, ms: 400 },
      waitMs: 60,
    });
    expect(later.status).toBe('working');
    expect((await tasks.get(owner, later.taskId))?.status).toBe('working');
  });

  it('hears of a call that settles only after its cleanup (which no event follows), not at the end of the window', async () => {
    const tidy = defineTool({
      name: 'tidy',
      description: 'Answers, then tidies up for a while.',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => {
        ctx.onTeardown(() => new Promise((resolve) => setTimeout(resolve, 150)), { scope: 'call' });
        await new Promise((resolve) => setTimeout(resolve, 10));
        return 'done';
      },
    });
    const tools = createRuntime({ tools: [tidy] });
    const tasks = runTaskHost(createMemoryRunDirectory({ runtime: tools }), tools);
    const started = performance.now();
    const done = await tasks.start({
      owner,
      identity: ana,
      phase: 'act',
      answers: {},
      tool: 'tidy',
      args: {},
      waitMs: 10_000,
    });
    expect(done).toMatchObject({ status: 'completed', result: { ok: true, value: 'done' } });
    // Its record is filed once the cleanup ended (~160 ms): heard then, far from the 10 s window's end.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('stops waiting when the run object cannot say (the run is gone), rather than asking again and again', async () => {
    const tools = createRuntime({ tools: [sleep] });
    const { runs, asked } = counted(createMemoryRunDirectory({ runtime: tools }));
    // The run answers 404 to every wait, as one whose storage was deleted meanwhile does.
    let waits = 0;
    const gone: RunDirectory = {
      ...runs,
      start: (init) => runs.start(init),
      list: (...args) => runs.list(...args),
      get: (runId) => {
        const run = runs.get(runId);
        return new Proxy(run, {
          get: (target, verb, receiver) =>
            verb === 'nextCallStatus'
              ? async () => {
                  waits++;
                  return { ok: false, status: 404, error: { kind: 'not-found', message: 'gone' } };
                }
              : Reflect.get(target, verb, receiver),
        }) as DoorRun;
      },
    };
    const tasks = runTaskHost(gone, tools);
    const task = await tasks.start({
      owner,
      identity: ana,
      phase: 'act',
      answers: {},
      tool: 'sleep',
      args: {},
      waitMs: 300,
    });
    expect(task.status).toBe('working');
    expect(asked).toEqual({ startCall: 1 });
    expect(waits).toBe(1);
  });

  it('nextCallStatus answers at once for news already there, waits no longer than asked, and only for its owner', async () => {
    const tools = createRuntime({ tools: [sleep] });
    const runs = createMemoryRunDirectory({ runtime: tools });
    const started = await runs.start({ runId: 'run_w', identity: ana });
    expect(started.ok).toBe(true);
    const run = runs.get('run_w');
    const handle = await run.startCall(ana, { tool: 'sleep', args: {}, toolCallId: 'z' });
    if (!handle.ok) throw new Error('the call was refused');
    // Nothing new: the handle as it is once the time is up.
    expect(await run.nextCallStatus(ana, 'z', handle.value, 30)).toMatchObject({
      ok: true,
      value: { status: 'working' },
    });
    // Something the caller has not seen: at once, without waiting its minute.
    const old = { ...handle.value, status: 'input_required' as const };
    expect(await run.nextCallStatus(ana, 'z', old, 60_000)).toMatchObject({
      ok: true,
      value: { status: 'working' },
    });
    // Another identity gets the 404 of a run it does not have, at once.
    const bob = { tenant: 'acme', principal: 'bob' };
    expect(await run.nextCallStatus(bob, 'z', handle.value, 60_000)).toMatchObject({
      ok: false,
      status: 404,
    });
    // A cancel is news: a waiter hears of it as it happens.
    const news = run.nextCallStatus(ana, 'z', handle.value, 60_000);
    await run.cancel(ana, 'z');
    expect(await news).toMatchObject({ ok: true, value: { status: 'cancelled' } });
    // A call that is over changes no more: asked about it as seen, the answer is at once.
    const over = await run.nextCallStatus(ana, 'z', handle.value, 60_000);
    if (!over.ok) throw new Error('the call was lost');
    expect(await run.nextCallStatus(ana, 'z', over.value, 60_000)).toEqual(over);
    // So is one of a run that ended.
    const second = await run.startCall(ana, { tool: 'sleep', args: {}, toolCallId: 'y' });
    if (!second.ok) throw new Error('the call was refused');
    const ending = run.nextCallStatus(ana, 'y', second.value, 60_000);
    await run.end(ana);
    expect(await ending).toMatchObject({ ok: true, value: { status: 'cancelled' } });
  });

  it('answers a waiter past the 64th of a run at once: waiting takes no more than that of a run object', async () => {
    const runs = createMemoryRunDirectory({ runtime: createRuntime({ tools: [sleep] }) });
    await runs.start({ runId: 'run_many', identity: ana });
    const run = runs.get('run_many');
    const handle = await run.startCall(ana, { tool: 'sleep', args: {}, toolCallId: 's' });
    if (!handle.ok) throw new Error('the call was refused');
    const waiting = Array.from({ length: 64 }, () => run.nextCallStatus(ana, 's', handle.value, 60_000));
    // The 65th is answered at once, as it is; the 64 hear of the cancel.
    expect(await run.nextCallStatus(ana, 's', handle.value, 60_000)).toMatchObject({
      ok: true,
      value: { status: 'working' },
    });
    await run.cancel(ana, 's');
    const answers = await Promise.all(waiting);
    expect(answers.every((answer) => answer.ok && answer.value.status === 'cancelled')).toBe(true);
  });
});

/** `runs`, counting the verbs asked of its runs: what a window costs in requests to run objects. */
function counted(inner: RunDirectory): { runs: RunDirectory; asked: Record<string, number> } {
  const asked: Record<string, number> = {};
  const runs: RunDirectory = {
    ...inner,
    start: (init) => inner.start(init),
    list: (...args) => inner.list(...args),
    get(runId) {
      const run = inner.get(runId);
      return new Proxy(run, {
        get(target, verb, receiver) {
          const value = Reflect.get(target, verb, receiver);
          if (typeof value !== 'function' || typeof verb !== 'string') return value;
          return (...args: unknown[]) => {
            asked[verb] = (asked[verb] ?? 0) + 1;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }) as DoorRun;
    },
  };
  return { runs, asked };
}
