// The official Tasks client (@modelcontextprotocol/ext-tasks) following toolctx's tasks on Workers:
// the MCP test Worker's /mcp-tasks (mountMcp with `tasks`, one run Durable Object per task) under
// `wrangler dev`, its bearer token the principal. The SDK v2 client connects (2026-07-28); ext-tasks
// sends tools/call and tasks/* through `rawDispatch`, a plain 2026 POST per request.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  type DispatchOptions,
  type JsonRpcResponse,
  JsonRpcResponseError,
  type RawClientDispatch,
  resultFromTaskOutcome,
  type TaskEnabledSession,
  type V2RequestFraming,
} from '@modelcontextprotocol/ext-tasks/client';
import { readSse } from '@toolctx/core/sse';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { edgeDir } from '../worker/example-worker.js';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/mcp/wrangler.test.jsonc' });
}, 180_000);
afterAll(() => dev?.stop());

const endpoint = () => `${dev.url}/mcp-tasks`;
const framing: V2RequestFraming = {
  protocolVersion: '2026-07-28',
  clientInfo: { name: 'ext-tasks-test', version: '1.0.0' },
  clientCapabilities: {},
};

let nextId = 1;
/** The host's raw request path as `principal`: one 2026 POST per request, its id ours. */
const rawDispatchAs =
  (principal: string): RawClientDispatch =>
  async (request, options: DispatchOptions = {}) => {
    const { method, params } = request as { method: string; params?: { name?: unknown } };
    const id = nextId++;
    const name: Record<string, string> = typeof params?.name === 'string' ? { 'mcp-name': params.name } : {};
    const response = await fetch(endpoint(), {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${principal}`,
        'mcp-protocol-version': framing.protocolVersion,
        'mcp-method': method,
        ...name,
        ...options.context?.headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, ...(request as object) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const messages: { id?: unknown; result?: unknown; error?: unknown }[] = [];
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      for await (const event of readSse(response.body!)) messages.push(JSON.parse(event.data));
    } else messages.push(await response.json());
    const answer = messages.find((message) => message.id === id);
    if (!answer) throw new Error(`no answer to ${method} (HTTP ${response.status})`);
    return (
      'error' in answer ? { kind: 'error', error: answer.error } : { kind: 'result', result: answer.result }
    ) as JsonRpcResponse;
  };

const asked: unknown[] = [];
const onInputRequest = createApplicationInputHandler({
  elicitation: (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { colour: 'teal' } };
  },
  sampling: () => {
    throw new Error('no sampling here');
  },
  roots: () => ({ roots: [] }),
});

const errors: Error[] = [];
const open: { client: Client; session: TaskEnabledSession }[] = [];
async function connect(principal: string): Promise<TaskEnabledSession> {
  const client = new Client(
    { name: 'ext-tasks-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint()), {
      requestInit: { headers: { authorization: `Bearer ${principal}` } },
    }),
  );
  const session = createTaskSessionFromClient(client, {
    endpointId: `toolctx-worker-${principal}`,
    rawDispatch: rawDispatchAs(principal),
    v2RequestFraming: framing,
    onInputRequest,
    onError: (error) => errors.push(error),
  });
  open.push({ client, session });
  return session;
}
afterEach(async () => {
  for (const { client, session } of open.splice(0)) {
    await session.close();
    await client.close();
  }
  expect(errors).toEqual([]);
});

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

describe("the official Tasks client (ext-tasks) against the Worker's /mcp-tasks", () => {
  it('follows a required tool’s task, held in a run Durable Object, to its result', async () => {
    const session = await connect('ana');
    const execution = await session.callTool('task_wait', { ms: 300 });
    expect(execution.kind).toBe('task');
    const { outcome } = await execution.settle();
    expect(textOf(resultFromTaskOutcome(outcome))).toBe('waited 300 ms');
  });

  it('answers a task’s ask with the application’s input handler and completes', async () => {
    asked.length = 0;
    const session = await connect('ana');
    const execution = await session.callTool('task_ask', {});
    const { outcome } = await execution.settle();
    expect(textOf(resultFromTaskOutcome(outcome))).toBe('colour teal');
    expect(asked).toEqual(['Which colour?']);
  });

  it('cancels a task through ext-tasks (it ends cancelled), and shows it to no other identity', async () => {
    const ana = await connect('ana');
    const execution = await ana.callTool('task_wait', { ms: 60_000 });
    const taskId = execution.handle!.taskId;
    const bob = await connect('bob');
    const stranger = await bob
      .task(taskId)
      .snapshot()
      .catch((error: unknown) => error);
    expect(stranger).toBeInstanceOf(JsonRpcResponseError);
    expect((stranger as JsonRpcResponseError).code).toBe(-32602);
    await execution.cancel();
    expect((await execution.settle()).outcome.status).toBe('cancelled');
    await expect.poll(async () => (await ana.task(taskId).snapshot()).status).toBe('cancelled');
  });
});
