// MCP tasks on Workers under `wrangler dev` (the MCP test Worker's /mcp-tasks: mountMcp with
// `tasks`, one TaskRunHost object per task): a task answers only the identity that made it (any
// other gets exactly an unknown task's error), and it outlives a crash of the whole process
// group — a call the crash cut off says `failed` (interrupted, retryable), an open ask is still
// open and its answer finishes the call.
import { readSse } from '@toolctx/core/sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { type McpWorker, startMcpWorker } from './mcp-worker.js';

let worker: McpWorker;
beforeAll(async () => {
  worker = await startMcpWorker('/mcp-tasks');
});
afterAll(() => worker?.dev.stop());

interface Answer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;

/** One 2026-07-28 request as `principal` from a client that declared the Tasks extension. */
async function send(principal: string, method: string, params: Record<string, unknown>): Promise<Answer> {
  const name = (params.name ?? params.taskId ?? params.uri) as string;
  const response = await fetch(`${worker.dev.url}/mcp-tasks`, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      authorization: `Bearer ${principal}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {
            extensions: { 'io.modelcontextprotocol/tasks': {} },
          },
        },
      },
    }),
  });
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return response.json();
  for await (const event of readSse(response.body!)) {
    const message = JSON.parse(event.data) as Answer;
    if ('result' in message || 'error' in message) return message;
  }
  throw new Error(`${method}: no answer`);
}

async function taskUntil(
  principal: string,
  taskId: string,
  done: (task: Record<string, unknown>) => boolean,
) {
  const until = performance.now() + budget(30_000);
  for (;;) {
    const { result, error } = await send(principal, 'tasks/get', { taskId });
    if (error) throw new Error(`tasks/get: ${error.message}`);
    if (done(result!)) return result!;
    if (performance.now() > until) throw new Error(`task ${taskId}: ${JSON.stringify(result)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('MCP tasks in Durable Objects under wrangler dev', () => {
  it('answers an optional tool inline when it ends within the task window (its run object says when), and makes one that outlasts the window a task', async () => {
    const soon = await send('ana', 'tools/call', { name: 'task_soon', arguments: { ms: 100 } });
    expect(soon.error).toBeUndefined();
    expect(soon.result).not.toHaveProperty('taskId');
    expect(JSON.stringify(soon.result?.content)).toContain('waited 100 ms');
    const later = await send('ana', 'tools/call', { name: 'task_soon', arguments: { ms: 2_500 } });
    expect(later.result).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await taskUntil('ana', later.result!.taskId as string, (task) => task.status !== 'working');
    expect(done.status).toBe('completed');
    expect(JSON.stringify(done.result)).toContain('waited 2500 ms');
  });

  it('links its result to the artifact its call saved in KV and R2, which its owner reads and another identity cannot', async () => {
    const created = await send('ana', 'tools/call', { name: 'task_report', arguments: { ms: 200 } });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await taskUntil(
      'ana',
      created.result!.taskId as string,
      (task) => task.status !== 'working',
    );
    expect(done.status).toBe('completed');
    const content = (done.result as { content: { type: string; uri?: string }[] }).content;
    const link = content.find((block) => block.type === 'resource_link');
    expect(link).toMatchObject({ name: 'report.md', mimeType: 'text/markdown', size: 10 });
    expect(content[0]).toMatchObject({ type: 'text', text: `saved ${link!.uri!.split('/').at(-1)}` });
    const read = await send('ana', 'resources/read', { uri: link!.uri });
    expect(read.result).toMatchObject({ contents: [{ uri: link!.uri, text: '# Findings' }] });
    const stranger = await send('bo', 'resources/read', { uri: link!.uri });
    expect(stranger.error?.code).toBe(-32602);
  });

  it("answers another identity's task exactly as one that never existed, and leaves it running", async () => {
    const created = await send('ana', 'tools/call', { name: 'task_wait', arguments: { ms: 60_000 } });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result!.taskId as string;
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const params = method === 'tasks/update' ? { inputResponses: {} } : {};
      const stranger = await send('bob', method, { ...params, taskId });
      const unknown = await send('bob', method, { ...params, taskId: 'task_never' });
      expect(stranger.error?.code).toBe(-32602);
      expect(stranger.error?.message.replace(taskId, 'ID')).toBe(
        unknown.error?.message.replace('task_never', 'ID'),
      );
    }
    expect((await send('ana', 'tasks/get', { taskId })).result?.status).toBe('working');
    await send('ana', 'tasks/cancel', { taskId });
    expect((await taskUntil('ana', taskId, (task) => task.status !== 'working')).status).toBe('cancelled');
  });

  it("asks for a call's approval in the tool's words and with its arguments, read from its run object", async () => {
    const created = await send('ana', 'tools/call', {
      name: 'task_publish',
      arguments: { text: 'Tuesday launch' },
    });
    const taskId = created.result!.taskId as string;
    const waiting = await taskUntil('ana', taskId, (task) => task.status === 'input_required');
    const approval = (waiting.inputRequests as Record<string, { params?: { message?: string } }>)[
      'toolctx.approval'
    ];
    expect(approval?.params?.message).toContain('"Publish a note" (task_publish)');
    expect(approval?.params?.message).toContain('With:\n- text: Tuesday launch');
    const ack = await send('ana', 'tasks/update', {
      taskId,
      inputResponses: { 'toolctx.approval': { action: 'accept', content: {} } },
    });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    const done = await taskUntil('ana', taskId, (task) => task.status === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'published Tuesday launch' }] });
  });

  it('outlives a crash: a cut-off call is failed (interrupted, retryable), an open ask (of an idempotent tool, run again) stays open and its answer finishes the call', async () => {
    const cut = await send('ana', 'tools/call', { name: 'task_wait', arguments: { ms: 120_000 } });
    const asking = await send('ana', 'tools/call', { name: 'task_ask', arguments: {} });
    const cutId = cut.result!.taskId as string;
    const askId = asking.result!.taskId as string;
    await taskUntil('ana', askId, (task) => task.status === 'input_required');

    await worker.dev.crash();

    const failed = await taskUntil('ana', cutId, (task) => task.status !== 'working');
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, data: { kind: 'interrupted', retryable: true } },
    });
    expect(failed).not.toHaveProperty('result');
    const open = await taskUntil('ana', askId, (task) => task.status === 'input_required');
    expect(Object.keys(open.inputRequests as object)).toEqual(['colour']);
    const ack = await send('ana', 'tasks/update', {
      taskId: askId,
      inputResponses: { colour: { action: 'accept', content: { colour: 'teal' } } },
    });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    const done = await taskUntil('ana', askId, (task) => task.status === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'colour teal' }] });
  });

  it('sends notifications/tasks to a subscriptions/listen that follows the task, read from its run object, until it completes', async () => {
    const created = await send('ana', 'tools/call', { name: 'task_wait', arguments: { ms: 1500 } });
    const taskId = created.result!.taskId as string;
    const response = await fetch(`${worker.dev.url}/mcp-tasks`, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        authorization: 'Bearer ana',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'follow',
        method: 'subscriptions/listen',
        params: {
          notifications: { taskIds: [taskId] },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {
              extensions: { 'io.modelcontextprotocol/tasks': {} },
            },
          },
        },
      }),
    });
    const seen: { method: string; params: Record<string, unknown> }[] = [];
    for await (const event of readSse(response.body!)) {
      seen.push(JSON.parse(event.data));
      if (seen.at(-1)!.params.status === 'completed') break;
    }
    expect(seen[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    });
    expect(seen.slice(1).map((note) => [note.method, note.params.status])).toEqual([
      ['notifications/tasks', 'working'],
      ['notifications/tasks', 'completed'],
    ]);
    expect(seen.at(-1)!.params).toMatchObject({ taskId, result: { content: [{ text: 'waited 1500 ms' }] } });
  });
});
