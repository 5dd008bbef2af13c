// The official Tasks client (@modelcontextprotocol/ext-tasks) following toolctx's tasks over
// serveMcpHttp: the SDK v2 client connects (2026-07-28, server/discover), and ext-tasks sends
// tools/call and tasks/* itself through `rawDispatch` — the SDK's codecs reject a task result — here
// a plain 2026 POST per request, as its adapters doc asks of a host.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  type DispatchOptions,
  type JsonRpcResponse,
  type RawClientDispatch,
  type ResolvedInputExchangeContext,
  resultFromTaskOutcome,
  type TaskEnabledSession,
  type V2RequestFraming,
} from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { parseSse } from '../sse/index.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcpHttp } from './serve-mcp-http.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const brew = defineTool({
  name: 'brew',
  description: 'Brews for 300 ms; always a task.',
  inputSchema: z.object({ kind: z.string() }),
  taskSupport: 'required',
  execute: async ({ kind }, ctx) => {
    await sleep(300);
    return { brewed: kind, task: ctx.toolCallId };
  },
});
const colour = defineTool({
  name: 'colour',
  description: 'Asks for a colour; always a task.',
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
let aborted: unknown;
const wait = defineTool({
  name: 'wait',
  description: 'Waits until cancelled.',
  inputSchema: z.object({}),
  taskSupport: 'required',
  execute: (_args, ctx) =>
    new Promise<string>((_resolve, reject) => {
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

const mcp = serveMcpHttp(createRuntime({ tools: [brew, colour, wait, quick] }), {
  identify: ({ authInfo }) => (authInfo ? { tenant: 't', principal: authInfo.clientId } : undefined),
});
afterAll(() => mcp.close());

const url = 'http://localhost/mcp';
const fetchAsAna = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
  mcp.fetch(new Request(input, init), { authInfo: { token: 'x', clientId: 'ana', scopes: [] } });

const framing: V2RequestFraming = {
  protocolVersion: '2026-07-28',
  clientInfo: { name: 'ext-tasks-test', version: '1.0.0' },
  clientCapabilities: {},
};

let nextId = 1;
/**
 * The host's raw request path: one 2026 POST per request, its id ours, with the headers 2026 asks
 * for (`Mcp-Name` is the tool's name on tools/call; ext-tasks gives the task id for tasks/*).
 */
const rawDispatch: RawClientDispatch = async (request, options: DispatchOptions = {}) => {
  const { method, params } = request as { method: string; params?: { name?: unknown } };
  const id = nextId++;
  const name: Record<string, string> = typeof params?.name === 'string' ? { 'mcp-name': params.name } : {};
  const response = await fetchAsAna(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': framing.protocolVersion,
      'mcp-method': method,
      ...name,
      ...options.context?.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, ...(request as object) }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  const messages = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? parseSse(text).map((event) => JSON.parse(event.data))
    : [JSON.parse(text)];
  const answer = messages.find((message) => message.id === id);
  if (!answer) throw new Error(`no answer to ${method} (HTTP ${response.status}): ${text}`);
  return (
    'error' in answer ? { kind: 'error', error: answer.error } : { kind: 'result', result: answer.result }
  ) as JsonRpcResponse;
};

const asked: { message: unknown; context: ResolvedInputExchangeContext }[] = [];
const onInputRequest = createApplicationInputHandler({
  elicitation: (request, context) => {
    asked.push({ message: request.params.message, context });
    return { action: 'accept', content: { colour: 'teal' } };
  },
  sampling: () => {
    throw new Error('no sampling here');
  },
  roots: () => ({ roots: [] }),
});

const errors: Error[] = [];
let open: { client: Client; session: TaskEnabledSession } | undefined;
async function connect(): Promise<TaskEnabledSession> {
  const client = new Client(
    { name: 'ext-tasks-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchAsAna }));
  const session = createTaskSessionFromClient(client, {
    endpointId: 'toolctx-in-process',
    rawDispatch,
    v2RequestFraming: framing,
    onInputRequest,
    onError: (error) => errors.push(error),
  });
  open = { client, session };
  return session;
}
afterEach(async () => {
  await open?.session.close();
  await open?.client.close();
  open = undefined;
  expect(errors).toEqual([]);
});

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

describe('the official Tasks client (ext-tasks) against serveMcpHttp', () => {
  it('sees the extension in server/discover and follows a required tool’s task to its result', async () => {
    const session = await connect();
    expect(session.capabilities).toMatchObject({ execution: true, cancellation: true, inputResponses: true });
    const execution = await session.callTool('brew', { kind: 'oolong' });
    expect(execution.kind).toBe('task');
    const { outcome, lastTask } = await execution.settle();
    const result = resultFromTaskOutcome(outcome) as { structuredContent?: unknown };
    expect(result.structuredContent).toEqual({ brewed: 'oolong', task: execution.handle?.taskId });
    expect(lastTask?.status).toBe('completed');
  });

  it('gets a tool’s result at once when the call is not a task', async () => {
    const session = await connect();
    const execution = await session.callTool('quick', { n: 21 });
    expect(execution.kind).toBe('immediate');
    const { outcome } = await execution.settle();
    expect((resultFromTaskOutcome(outcome) as { structuredContent?: unknown }).structuredContent).toEqual({
      doubled: 42,
    });
  });

  it('routes a task’s ask to the application’s input handler, delivers the answer with tasks/update, and completes', async () => {
    asked.length = 0;
    const session = await connect();
    const execution = await session.callTool('colour', {});
    const { outcome } = await execution.settle();
    expect(textOf(resultFromTaskOutcome(outcome))).toBe('colour teal');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toBe('Which colour?');
    expect(asked[0]!.context).toMatchObject({
      scope: 'task',
      delivery: 'task-update',
      inputId: 'colour',
      taskId: execution.handle?.taskId,
    });
  });

  it('cancels a task through ext-tasks: the tool’s ctx.signal fires and the task ends cancelled', async () => {
    aborted = undefined;
    const session = await connect();
    const execution = await session.callTool('wait', {});
    const taskId = execution.handle!.taskId;
    expect((await session.task(taskId).snapshot()).status).toBe('working');
    await execution.cancel();
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe('cancelled');
    await expect.poll(() => aborted).toBeDefined();
    await expect.poll(async () => (await session.task(taskId).snapshot()).status).toBe('cancelled');
  });
});
