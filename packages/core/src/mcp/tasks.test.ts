// MCP tasks (the Tasks extension on 2026-07-28) over serveMcpHttp with its memory task host: what
// the conformance suite does not ask — another identity, cancellation reaching the tool, approvals
// inside a task, the window, the time to live — driven by raw requests.
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalPort } from '../approval/approval.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { readSse } from '../sse/index.js';
import { answerOf, type JsonRpcAnswer, mcp2026Request } from '../testing/mcp-requests.js';
import { defineTool } from '../tools/define-tool.js';
import { memoryTaskHost } from './memory-tasks.js';
import { serveMcpHttp } from './serve-mcp-http.js';
import { tasksExtension } from './tasks.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let aborted: unknown;
let releaseSlow = () => {};
const slow = defineTool({
  name: 'slow',
  description: 'Waits until released or cancelled.',
  inputSchema: z.object({}),
  taskWindowMs: 50,
  execute: (_args, ctx) =>
    new Promise<string>((resolve, reject) => {
      releaseSlow = () => resolve('released');
      ctx.signal.addEventListener(
        'abort',
        () => {
          aborted = ctx.signal.reason;
          reject(aborted);
        },
        { once: true },
      );
    }),
});
const quick = defineTool({
  name: 'quick',
  description: 'Answers at once.',
  inputSchema: z.object({ n: z.number() }),
  execute: ({ n }) => ({ doubled: n * 2 }),
});
const always = defineTool({
  name: 'always',
  description: 'A task whoever calls it; asks a question.',
  inputSchema: z.object({}),
  taskSupport: 'required',
  execute: async (_args, ctx) => {
    const answer = await ctx.ask({
      key: 'colour',
      message: 'Which colour?',
      schema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] },
    });
    return answer.action === 'accept' ? `colour ${answer.values.colour}` : answer.action;
  },
});
const guarded = defineTool({
  name: 'guarded',
  description: 'Needs approval; a task at once.',
  inputSchema: z.object({ target: z.string() }),
  effect: 'write',
  needsApproval: true,
  taskSupport: 'required',
  execute: ({ target }) => `wrote ${target}`,
});
const pending: ApprovalPort = { request: async () => 'pending' };
const runtime = createRuntime({ tools: [slow, quick, always, guarded], approval: pending });
// The memory host, counting its reads of each task: what a listen costs.
const memory = memoryTaskHost(runtime, { ttlMs: 400 });
const reads = new Map<string, number>();
const mcp = serveMcpHttp(runtime, {
  identify: ({ authInfo }) => (authInfo ? { tenant: 't', principal: authInfo.clientId } : undefined),
  tasks: {
    ...memory,
    get: (owner, taskId) => {
      reads.set(taskId, (reads.get(taskId) ?? 0) + 1);
      return memory.get(owner, taskId);
    },
  },
  taskPollMs: 100,
});
afterAll(() => mcp.close());

const declaring = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [tasksExtension]: {} } } };
let nextId = 1;

const as = (principal: string) => ({ authInfo: { token: 'x', clientId: principal, scopes: [] } });

/** One 2026 request as `principal`, answered with its JSON-RPC message. */
async function send(
  principal: string,
  method: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown> = declaring,
): Promise<JsonRpcAnswer> {
  return answerOf(await mcp.fetch(mcp2026Request(method, params, { meta, id: nextId++ }), as(principal)));
}

/** Opens a `subscriptions/listen` for `taskIds` as `principal`; `next()` reads its next message. */
async function listen(principal: string, taskIds: string[]) {
  const hangUp = new AbortController();
  const request = mcp2026Request(
    'subscriptions/listen',
    { notifications: { taskIds } },
    { meta: declaring, id: 'sub-1', signal: hangUp.signal },
  );
  const response = await mcp.fetch(request, as(principal));
  const events = readSse(response.body!)[Symbol.asyncIterator]();
  return {
    response,
    async next(ms = 2000): Promise<{ method: string; params: Record<string, unknown> } | 'quiet'> {
      const timeout = sleep(ms).then(() => 'quiet' as const);
      const event = await Promise.race([events.next(), timeout]);
      if (event === 'quiet') return event;
      return JSON.parse((event.value as { data: string }).data);
    },
    close: () => hangUp.abort(),
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let tries = 0; tries < 100; tries++) {
    const value = await read();
    if (done(value)) return value;
    await sleep(20);
  }
  throw new Error('gave up waiting');
}

describe('MCP tasks over serveMcpHttp', () => {
  it('answers a call that settles within its window with the result, and one that does not as a task', async () => {
    const now = await send('ana', 'tools/call', { name: 'quick', arguments: { n: 2 } });
    expect(now.result).toMatchObject({ resultType: 'complete', structuredContent: { doubled: 4 } });
    const later = await send('ana', 'tools/call', { name: 'slow', arguments: {} });
    expect(later.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 1000 });
    releaseSlow();
    const taskId = later.result!.taskId as string;
    const done = await until(
      () => send('ana', 'tasks/get', { taskId }),
      (got) => got.result?.status === 'completed',
    );
    // The whole tools/call result, as 2026 has every result: with its resultType.
    expect(done.result!.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'released' }],
    });
  });

  it('never makes a task for a client that did not declare the extension, and refuses a required tool with -32021', async () => {
    const plain = { 'io.modelcontextprotocol/clientCapabilities': {} };
    const call = send('ana', 'tools/call', { name: 'slow', arguments: {} }, plain);
    await sleep(100);
    releaseSlow();
    expect((await call).result).toMatchObject({ resultType: 'complete', content: [{ text: 'released' }] });
    const refused = await send('ana', 'tools/call', { name: 'always', arguments: {} }, plain);
    expect(refused.error?.code).toBe(-32021);
    expect((await send('ana', 'tasks/get', { taskId: 'task_x' }, plain)).error?.code).toBe(-32021);
  });

  it("answers another identity's task exactly as a task that never existed", async () => {
    const created = await send('ana', 'tools/call', { name: 'slow', arguments: {} });
    const taskId = created.result!.taskId as string;
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const params = method === 'tasks/update' ? { taskId, inputResponses: {} } : { taskId };
      const stranger = await send('bob', method, params);
      const unknown = await send('bob', method, { ...params, taskId: 'task_unknown' });
      expect(stranger.error?.code).toBe(-32602);
      expect(stranger.error?.message.replace(taskId, 'ID')).toBe(
        unknown.error?.message.replace('task_unknown', 'ID'),
      );
    }
    // Bob's cancel reached nothing: Ana's task still runs.
    expect((await send('ana', 'tasks/get', { taskId })).result?.status).toBe('working');
    await send('ana', 'tasks/cancel', { taskId });
  });

  it("fires the tool's ctx.signal on tasks/cancel, and the task ends cancelled", async () => {
    aborted = undefined;
    const created = await send('ana', 'tools/call', { name: 'slow', arguments: {} });
    const taskId = created.result!.taskId as string;
    expect((await send('ana', 'tasks/cancel', { taskId })).result).not.toHaveProperty('status');
    const ended = await until(
      () => send('ana', 'tasks/get', { taskId }),
      (got) => got.result?.status !== 'working',
    );
    expect(ended.result?.status).toBe('cancelled');
    expect(aborted).toBeDefined();
  });

  it('holds an ask as input_required until tasks/update answers it, and ignores unknown keys', async () => {
    const created = await send('ana', 'tools/call', { name: 'always', arguments: {} });
    const taskId = created.result!.taskId as string;
    const asking = await until(
      () => send('ana', 'tasks/get', { taskId }),
      (got) => got.result?.status === 'input_required',
    );
    expect(Object.keys(asking.result!.inputRequests as object)).toEqual(['colour']);
    expect(asking.result).toMatchObject({ statusMessage: 'Which colour?' });
    await send('ana', 'tasks/update', {
      taskId,
      inputResponses: { other: { action: 'accept', content: {} } },
    });
    expect((await send('ana', 'tasks/get', { taskId })).result?.status).toBe('input_required');
    const answer = { colour: { action: 'accept', content: { colour: 'teal' } } };
    const ack = (await send('ana', 'tasks/update', { taskId, inputResponses: answer })).result;
    expect(ack).toMatchObject({ resultType: 'complete' });
    expect(ack).not.toHaveProperty('status');
    const done = await until(
      () => send('ana', 'tasks/get', { taskId }),
      (got) => got.result?.status === 'completed',
    );
    expect(done.result!.result).toMatchObject({ content: [{ text: 'colour teal' }] });
  });

  it('asks for an approval as a task input request, and runs the tool once tasks/update approves', async () => {
    const created = await send('ana', 'tools/call', { name: 'guarded', arguments: { target: 'db' } });
    const taskId = created.result!.taskId as string;
    const waiting = await until(
      () => send('ana', 'tasks/get', { taskId }),
      (got) => got.result?.status === 'input_required',
    );
    const request = (waiting.result!.inputRequests as Record<string, { params: { message: string } }>)[
      'toolctx.approval'
    ];
    expect(request?.params.message).toContain('guarded');
    // An answer that does not fit the approval form decides nothing.
    await send('ana', 'tasks/update', {
      taskId,
      inputResponses: { 'toolctx.approval': { action: 'maybe' } },
    });
    expect((await send('ana', 'tasks/get', { taskId })).result?.status).toBe('input_required');
    await send('ana', 'tasks/update', {
      taskId,
      inputResponses: { 'toolctx.approval': { action: 'accept', content: {} } },
    });
    const done = await until(
      () => send('ana', 'tasks/get', { taskId }),
      (got) => got.result?.status === 'completed',
    );
    expect(done.result!.result).toMatchObject({ content: [{ text: 'wrote db' }] });
  });

  it('keeps a settled task for its ttlMs, then answers it as unknown', async () => {
    const created = await send('ana', 'tools/call', { name: 'slow', arguments: {} });
    const taskId = created.result!.taskId as string;
    expect(created.result!.ttlMs).toBe(400);
    releaseSlow();
    await until(
      () => send('ana', 'tasks/get', { taskId }),
      (got) => got.result?.status === 'completed',
    );
    await sleep(450);
    expect((await send('ana', 'tasks/get', { taskId })).error?.code).toBe(-32602);
  });

  it("sends notifications/tasks on subscriptions/listen as a task changes, and nothing of another identity's task", async () => {
    const created = await send('ana', 'tools/call', { name: 'slow', arguments: {} });
    const taskId = created.result!.taskId as string;
    const ana = await listen('ana', [taskId, taskId]);
    expect(ana.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const ack = await ana.next();
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { taskIds: [taskId] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
      },
    });
    expect(await ana.next()).toMatchObject({
      method: 'notifications/tasks',
      params: { taskId, status: 'working' },
    });
    const bob = await listen('bob', [taskId]);
    expect(await bob.next()).toMatchObject({ params: { notifications: { taskIds: [taskId] } } });
    releaseSlow();
    expect(await ana.next()).toMatchObject({
      method: 'notifications/tasks',
      params: { taskId, status: 'completed', result: { content: [{ text: 'released' }] } },
    });
    // Bob acknowledged, as for any id, and heard nothing of Ana's task.
    expect(await bob.next(1200)).toBe('quiet');
    ana.close();
    bob.close();
  });

  it("stops reading a task once it has settled, and an id that is none of the caller's after one read", async () => {
    const created = await send('ana', 'tools/call', { name: 'slow', arguments: {} });
    const taskId = created.result!.taskId as string;
    const ana = await listen('ana', [taskId, 'task_nobody']);
    await ana.next(); // acknowledged
    expect(await ana.next()).toMatchObject({ params: { taskId, status: 'working' } });
    releaseSlow();
    expect(await ana.next()).toMatchObject({ params: { taskId, status: 'completed' } });
    const settledReads = reads.get(taskId);
    await sleep(450); // four more polls, were it still reading
    expect(reads.get(taskId)).toBe(settledReads);
    expect(reads.get('task_nobody')).toBe(1);
    ana.close();
  });

  it('holds at most 8 listens for tasks open per identity: a ninth is 429 -32000 until one closes', async () => {
    const open = await Promise.all(Array.from({ length: 8 }, () => listen('cleo', ['task_x'])));
    for (const each of open) expect(each.response.status).toBe(200);
    const ninth = await listen('cleo', ['task_x']);
    expect(ninth.response.status).toBe(429);
    expect(await ninth.response.json()).toMatchObject({
      id: 'sub-1',
      error: { code: -32000, message: expect.stringMatching(/at most 8 per identity/) },
    });
    // Another identity is not held back by cleo's listens.
    const dan = await listen('dan', ['task_x']);
    expect(dan.response.status).toBe(200);
    dan.close();
    open[0]!.close();
    await sleep(20);
    const again = await listen('cleo', ['task_x']);
    expect(again.response.status).toBe(200);
    again.close();
    for (const each of open.slice(1)) each.close();
  });

  it('refuses a listen for tasks from a client that did not declare the extension with -32021', async () => {
    const request = mcp2026Request(
      'subscriptions/listen',
      { notifications: { taskIds: ['task_x'] } },
      { id: 7 },
    );
    const response = await mcp.fetch(request);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32021 } });
  });
});

describe('task polls (task-poll.ts)', () => {
  let made = 0;
  const polled = serveMcpHttp(runtime, {
    tasks: memoryTaskHost(runtime),
    configureServer: () => {
      made++;
    },
  });
  afterAll(() => polled.close());

  /** A `tasks/get` with `extra` params beside the task id, answered as parsed JSON. */
  async function poll(taskId: string, id: number, extra: Record<string, unknown> = {}) {
    const response = await polled.fetch(
      mcp2026Request('tasks/get', { taskId, ...extra }, { meta: declaring, id }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    return response.json();
  }

  it('answers a plain tasks/get without making a server, exactly as the SDK handler answers it', async () => {
    const started = await polled.fetch(
      mcp2026Request('tools/call', { name: 'guarded', arguments: { target: 'x' } }, { meta: declaring }),
    );
    const taskId = ((await started.json()) as { result: { taskId: string } }).result.taskId;
    // Asking for its approval: a task with input requests to compare.
    await until(
      () => poll(taskId, 2),
      (got) => (got as { result?: { status?: string } }).result?.status === 'input_required',
    );
    made = 0;
    const fast = await poll(taskId, 2);
    expect(made).toBe(0);
    // A param the method does not know is no error, but only the SDK's handler weighs it: the same
    // poll answered the SDK's way, with a server made for it.
    const sdk = await poll(taskId, 2, { note: 'unread' });
    expect(made).toBe(1);
    expect(fast).toEqual(sdk);
    expect(fast).toMatchObject({
      id: 2,
      result: { taskId, status: 'input_required', inputRequests: {}, resultType: 'complete' },
    });
  });

  it('leaves an unknown task to the SDK handler, which answers its error', async () => {
    made = 0;
    const unknown = await poll('task_never', 3);
    expect(made).toBe(1);
    expect(unknown).toMatchObject({ id: 3, error: { code: -32602 } });
  });
});

describe('a memory task host at its limit', () => {
  it('refuses one more task with a JSON-RPC error naming maxTasks, and runs nothing for it', async () => {
    let ran = 0;
    const held = defineTool({
      name: 'held',
      description: 'Waits until cancelled; always a task.',
      inputSchema: z.object({}),
      taskSupport: 'required',
      execute: (_args, ctx) => {
        ran++;
        return new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }),
        );
      },
    });
    const small = createRuntime({ tools: [held] });
    const server = serveMcpHttp(small, { tasks: memoryTaskHost(small, { maxTasks: 1 }) });
    const call = async () =>
      answerOf(
        await server.fetch(
          mcp2026Request('tools/call', { name: 'held', arguments: {} }, { meta: declaring }),
        ),
      );
    const first = await call();
    expect(first.result).toMatchObject({ resultType: 'task' });
    const refused = await call();
    expect(refused.error).toMatchObject({ code: -32000, message: expect.stringContaining('maxTasks') });
    expect(ran).toBe(1);
    await server.fetch(mcp2026Request('tasks/cancel', { taskId: first.result!.taskId }, { meta: declaring }));
    await server.close();
  });
});
