import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolctxError } from '../errors.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcp } from './serve-mcp.js';

const seen = { aborted: [] as string[], started: [] as string[] };

const tools = [
  defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => ({ sum: a + b }),
  }),
  defineTool({
    name: 'steps',
    description: 'Reports three steps of progress.',
    inputSchema: z.object({}),
    effect: 'write',
    execute: async (_args, ctx) => {
      for (let done = 1; done <= 3; done++) {
        ctx.progress({ message: `step ${done}`, done, total: 3 });
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return 'all steps done';
    },
  }),
  defineTool({
    name: 'wander',
    description: 'Reports progress that goes back, and messages without a count.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      for (const report of [{ done: 1 }, { done: 2 }, { done: 0 }, 'checking', { done: 1 }, { done: 3 }]) {
        ctx.progress(
          typeof report === 'string' ? report : { ...report, total: 3, message: `at ${report.done}` },
        );
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return 'wandered';
    },
  }),
  defineTool({
    name: 'refuse',
    description: 'Always fails with a chosen kind.',
    inputSchema: z.object({}),
    execute: () => {
      throw new ToolctxError('policy-refused', 'Not today.', { details: { why: 'test' } });
    },
  }),
  defineTool({
    name: 'wait_for_abort',
    description: 'Runs until its signal fires.',
    inputSchema: z.object({ id: z.string() }),
    execute: ({ id }, ctx) =>
      new Promise((_resolve, reject) => {
        seen.started.push(id);
        ctx.signal.addEventListener('abort', () => {
          seen.aborted.push(id);
          reject(ctx.signal.reason);
        });
      }),
  }),
  defineTool({
    name: 'probe',
    description: 'Reports what its context holds.',
    inputSchema: z.object({}),
    execute: (_args, ctx) => ({ hasRunId: ctx.runId !== undefined, hasTools: ctx.tools !== undefined }),
  }),
];

async function connect(options: Parameters<typeof serveMcp>[1] = {}) {
  const runtime = createRuntime({ tools });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const fromServer: JSONRPCMessage[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, sendOptions) => {
    fromServer.push(message);
    return send(message, sendOptions);
  };
  await serveMcp(runtime, options).connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, runtime, fromServer };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

describe('serveMcp over the SDK in-memory transport', () => {
  it('lists every tool with its JSON Schema', async () => {
    const { client, runtime } = await connect();
    const { tools: listed } = await client.listTools();
    expect(listed.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    const add = listed.find((tool) => tool.name === 'add')!;
    expect(add.inputSchema).toEqual(runtime.listTools()[0]!.inputSchema);
    expect(add.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
  });

  it('lists a tool’s icons, and the server’s with its serverInfo, when defined with them', async () => {
    const icon = { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] };
    const pictured = defineTool({
      name: 'pictured',
      description: 'Has a picture.',
      inputSchema: z.object({}),
      icons: [icon],
      execute: () => 'ok',
    });
    const runtime = createRuntime({ tools: [pictured, tools[0]!] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await serveMcp(runtime, { serverInfo: { name: 'shop', version: '1.0.0', icons: [icon] } }).connect(
      serverSide,
    );
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(clientSide);
    const { tools: listed } = await client.listTools();
    expect(listed.map((tool) => tool.icons)).toEqual([[icon], undefined]);
    expect(client.getServerVersion()?.icons).toEqual([icon]);
    await client.close();
  });

  it('offers only read tools when serving the plan phase', async () => {
    const { client } = await connect({ phase: 'plan' });
    const { tools: listed } = await client.listTools();
    expect(listed.map((tool) => tool.name)).not.toContain('steps');
    expect(listed.map((tool) => tool.name)).toContain('add');
  });

  it('calls a tool and returns its text and structured value', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: '{"sum":5}' }]);
    expect(result.structuredContent).toEqual({ sum: 5 });
  });

  it('returns a failure as an isError result carrying the ErrorInfo', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'refuse', arguments: {} });
    const info = {
      kind: 'policy-refused',
      message: 'Not today.',
      retryable: false,
      details: { why: 'test' },
    };
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Not today.' }]);
    expect(result.structuredContent).toEqual({ error: info });
    expect(result._meta?.['toolctx/error']).toEqual(info);
  });

  it('reports bad arguments and unknown tools as isError results with their kinds', async () => {
    const { client } = await connect();
    const invalid = await client.callTool({ name: 'add', arguments: { a: 'two' } });
    expect(invalid.isError).toBe(true);
    expect((invalid.structuredContent as { error: { kind: string } }).error.kind).toBe('args-invalid');
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect((unknown.structuredContent as { error: { kind: string } }).error.kind).toBe('unknown-tool');
  });

  it('forwards progress in order when the client sent a progress token', async () => {
    const { client } = await connect();
    const received: unknown[] = [];
    const result = await client.callTool({ name: 'steps', arguments: {} }, undefined, {
      onprogress: (progress) => received.push(progress),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'all steps done' }]);
    expect(received).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('numbers progress so it only increases, and every report still arrives, when the tool’s own figures go back', async () => {
    const { client } = await connect();
    const received: Array<{ progress: number; message?: string }> = [];
    await client.callTool({ name: 'wander', arguments: {} }, undefined, {
      onprogress: (progress) => received.push(progress),
    });
    expect(received.map((report) => report.message)).toEqual([
      'at 1',
      'at 2',
      'at 0',
      'checking',
      'at 1',
      'at 3',
    ]);
    const figures = received.map((report) => report.progress);
    for (let i = 1; i < figures.length; i++) expect(figures[i]).toBeGreaterThan(figures[i - 1]!);
    // Where the tool's own figure moves forward it is sent as it is; else a hair above the last.
    expect([figures[0], figures[1], figures[5]]).toEqual([1, 2, 3]);
    expect(figures[2]! - 2).toBeLessThan(0.001);
  });

  it('sends no progress notification when the client sent no progress token', async () => {
    const { client, fromServer } = await connect();
    await client.callTool({ name: 'steps', arguments: {} });
    const methods = fromServer.map((message) => ('method' in message ? message.method : 'response'));
    expect(methods).not.toContain('notifications/progress');
    expect(methods).toContain('response');
  });

  it("turns the client's cancellation into the tool's abort signal", async () => {
    const { client } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_abort', arguments: { id: 'c1' } }, undefined, {
      signal: controller.signal,
    });
    const settled = call.then(
      () => 'resolved',
      () => 'rejected',
    );
    await until(() => seen.started.includes('c1'));
    controller.abort('user pressed stop');
    expect(await settled).toBe('rejected');
    await until(() => seen.aborted.includes('c1'));
  });

  it('aborts calls in flight when the connection closes', async () => {
    const { client } = await connect();
    const call = client.callTool({ name: 'wait_for_abort', arguments: { id: 'c2' } }).catch(() => 'closed');
    await until(() => seen.started.includes('c2'));
    await client.close();
    expect(await call).toBe('closed');
    await until(() => seen.aborted.includes('c2'));
  });

  it('serves calls with no run id and no dispatch', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'probe', arguments: {} });
    expect(result.structuredContent).toEqual({ hasRunId: false, hasTools: false });
  });
});

describe("serveMcp and the SDK's registerTool", () => {
  it('refuses registerTool, naming defineTool and mcpTools, and keeps serving the runtime tools and SDK prompts', async () => {
    const server = serveMcp(createRuntime({ tools }));
    expect(() =>
      server.registerTool('extra', { description: 'An SDK tool.', inputSchema: z.object({}) }, () => ({
        content: [],
      })),
    ).toThrow(/registerTool\("extra"\).*defineTool.*mcpTools\(client\)/s);
    server.registerPrompt('greeting', { description: 'Says hello.' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['greeting']);
    expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toMatchObject({
      structuredContent: { sum: 3 },
    });
    await client.close();
  });
});
