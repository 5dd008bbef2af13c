import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolctxError } from '../errors.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { createStatusModel } from '../status/status-model.js';
import { defineTool } from '../tools/define-tool.js';
import { mcpTools } from './mcp-tools.js';
import { serveMcp } from './serve-mcp.js';

const remote = { started: 0, aborted: 0 };

const remoteTools = [
  defineTool({
    name: 'index_docs',
    description: 'Indexes documents, reporting each.',
    inputSchema: z.object({ count: z.number() }),
    execute: async ({ count }, ctx) => {
      for (let done = 1; done <= count; done++) {
        ctx.progress({ message: `Indexed document ${done}`, done, total: count });
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return { indexed: count };
    },
  }),
  defineTool({
    name: 'hang',
    description: 'Runs until cancelled.',
    inputSchema: z.object({}),
    execute: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        remote.started++;
        ctx.signal.addEventListener('abort', () => {
          remote.aborted++;
          reject(ctx.signal.reason);
        });
      }),
  }),
  defineTool({
    name: 'quota',
    description: 'Fails as over budget.',
    inputSchema: z.object({}),
    execute: () => {
      throw new ToolctxError('budget-exceeded', 'The monthly quota is spent.', { retryable: true });
    },
  }),
];

async function connected(server: { connect: McpServer['connect'] }) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'local-agent', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

async function localRun() {
  const client = await connected(serveMcp(createRuntime({ tools: remoteTools })));
  const tools = await mcpTools(client, { prefix: 'remote_' });
  const events: ToolEvent[] = [];
  const run = createRuntime({ tools }).startRun();
  run.events.subscribe((event) => void events.push(event));
  return { tools, run, events };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

describe('mcpTools over a remote toolctx server', () => {
  it('wraps each remote tool with its JSON Schema under a prefixed name', async () => {
    const { tools } = await localRun();
    expect(tools.map((tool) => tool.name)).toEqual(['remote_index_docs', 'remote_hang', 'remote_quota']);
    expect(tools[0]!.inputJsonSchema).toMatchObject({ type: 'object', required: ['count'] });
  });

  it('returns the remote value and passes remote progress to the local status line', async () => {
    const { run, events } = await localRun();
    const status = createStatusModel();
    const texts: string[] = [];
    run.events.subscribe((event) => {
      const line = status.apply(event);
      if (line?.state === 'running' && line.reports > 0) texts.push(line.text);
    });
    const result = await run.call({ tool: 'remote_index_docs', args: { count: 3 }, toolCallId: 'c1' });
    expect(result).toMatchObject({ ok: true, value: { indexed: 3 } });
    expect(texts).toEqual(['Indexed document 1', 'Indexed document 2', 'Indexed document 3']);
    expect(status.line('c1')).toMatchObject({ state: 'done', done: 3, total: 3, reports: 3 });
    const progress = events.filter((event) => event.type === 'tool.progress').map((event) => event.data);
    expect(progress[0]).toMatchObject({ payload: { message: 'Indexed document 1', done: 1, total: 3 } });
  });

  it('refuses arguments without the required keys before calling the server', async () => {
    const { run } = await localRun();
    const result = await run.call({ tool: 'remote_index_docs', args: {} });
    expect(result).toMatchObject({ ok: false, error: { kind: 'args-invalid' } });
  });

  it('cancels the remote call when the local call is aborted', async () => {
    const { run } = await localRun();
    const before = remote.aborted;
    const controller = new AbortController();
    const call = run.call({ tool: 'remote_hang', args: {}, signal: controller.signal });
    await until(() => remote.started > 0);
    controller.abort();
    expect(await call).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    await until(() => remote.aborted === before + 1);
  });

  it('fails with the remote ErrorInfo', async () => {
    const { run } = await localRun();
    const result = await run.call({ tool: 'remote_quota', args: {} });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'budget-exceeded', message: 'The monthly quota is spent.', retryable: true },
    });
  });
});

describe('mcpTools over a plain MCP server', () => {
  async function plainServerTools() {
    const server = new McpServer({ name: 'plain', version: '1.0.0' });
    server.registerTool(
      'files.read',
      {
        description: 'Reads a file.',
        inputSchema: { path: z.string() },
        annotations: { readOnlyHint: true },
      },
      ({ path }) => ({ content: [{ type: 'text', text: `contents of ${path}` }] }),
    );
    server.registerTool('mail.send', { description: 'Sends mail.', inputSchema: { to: z.string() } }, () => ({
      content: [{ type: 'text' as const, text: 'mailbox full' }],
      isError: true,
    }));
    return mcpTools(await connected(server));
  }

  it('names tools so every tool list accepts them and takes the effect from the annotations', async () => {
    const tools = await plainServerTools();
    expect(tools.map((tool) => [tool.name, tool.effect])).toEqual([
      ['files_read', 'read'],
      ['mail_send', 'send'],
    ]);
  });

  it('returns text results as text and an isError result as a tool error with its text', async () => {
    const run = createRuntime({ tools: await plainServerTools() }).startRun();
    expect(await run.call({ tool: 'files_read', args: { path: 'a.txt' } })).toMatchObject({
      ok: true,
      value: 'contents of a.txt',
      content: 'contents of a.txt',
    });
    expect(await run.call({ tool: 'mail_send', args: { to: 'x' } })).toMatchObject({
      ok: false,
      error: { kind: 'tool-error', message: 'The MCP tool "mail.send" failed: mailbox full' },
    });
  });
});
