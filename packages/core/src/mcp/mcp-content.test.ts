import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ContentPart, withParts } from '../content/content-part.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { mcpTools } from './mcp-tools.js';
import { serveMcp } from './serve-mcp.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

const parts: ContentPart[] = [
  { type: 'text', text: 'A chart:' },
  { type: 'image', data: PNG, mediaType: 'image/png' },
  { type: 'audio', data: WAV, mediaType: 'audio/wav' },
  { type: 'resource', uri: 'test://data.json', mediaType: 'application/json', text: '{"a":1}' },
  { type: 'resource', uri: 'test://raw.bin', blob: PNG },
  {
    type: 'resource-link',
    uri: 'test://big.csv',
    name: 'big.csv',
    title: 'Big',
    mediaType: 'text/csv',
    size: 9,
  },
];

const tools = [
  defineTool({
    name: 'chart',
    description: 'Draws a chart.',
    inputSchema: z.object({}),
    outputSchema: z.object({ points: z.number() }),
    execute: () => withParts(parts, { points: 3 }),
  }),
  defineTool({
    name: 'sum',
    description: 'Adds two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.object({ sum: z.number() }),
    execute: ({ a, b }) => ({ sum: a + b }),
  }),
  defineTool({
    name: 'stamp',
    description: 'Stamps a time, through a transform JSON Schema cannot express.',
    inputSchema: z.object({}),
    outputSchema: z.object({ at: z.number() }).transform(({ at }) => ({ at: new Date(at).toISOString() })),
    // execute's type is the schema's output; the value given is its input, which the transform turns.
    execute: () => ({ at: 0 }) as unknown as { at: string },
  }),
  defineTool({
    name: 'count',
    description: 'Counts, as a bare number.',
    inputSchema: z.object({}),
    outputSchema: z.number(),
    execute: () => 3,
  }),
];

async function connected(server: { connect: McpServer['connect'] }) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('serveMcp and content parts', () => {
  it('sends parts as MCP content and the value as structuredContent', async () => {
    const client = await connected(serveMcp(createRuntime({ tools })));
    await client.listTools(); // the client validates structuredContent against outputSchema from here on
    const result = await client.callTool({ name: 'chart', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: 'A chart:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'audio', data: WAV, mimeType: 'audio/wav' },
      {
        type: 'resource',
        resource: { uri: 'test://data.json', mimeType: 'application/json', text: '{"a":1}' },
      },
      { type: 'resource', resource: { uri: 'test://raw.bin', blob: PNG } },
      {
        type: 'resource_link',
        uri: 'test://big.csv',
        name: 'big.csv',
        title: 'Big',
        mimeType: 'text/csv',
        size: 9,
      },
    ]);
    expect(result.structuredContent).toEqual({ points: 3 });
  });

  it('publishes an object output schema as outputSchema, and no other', async () => {
    const client = await connected(serveMcp(createRuntime({ tools })));
    const listed = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    expect(listed.sum!.outputSchema).toMatchObject({
      type: 'object',
      properties: { sum: { type: 'number' } },
      required: ['sum'],
    });
    expect(listed.count!.outputSchema).toBeUndefined();
    expect(listed.stamp!.outputSchema).toBeUndefined();
    expect(await client.callTool({ name: 'stamp', arguments: {} })).toMatchObject({
      structuredContent: { at: '1970-01-01T00:00:00.000Z' },
    });
    const result = await client.callTool({ name: 'sum', arguments: { a: 1, b: 2 } });
    expect(result).toMatchObject({
      structuredContent: { sum: 3 },
      content: [{ type: 'text', text: '{"sum":3}' }],
    });
  });

  it('answers malformed parts as an isError result naming the part', async () => {
    const bad = defineTool({
      name: 'bad',
      description: 'Returns a broken image.',
      inputSchema: z.object({}),
      execute: () => withParts([{ type: 'image', data: PNG } as unknown as ContentPart]),
    });
    const client = await connected(serveMcp(createRuntime({ tools: [bad] })));
    const result = await client.callTool({ name: 'bad', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('parts[0].mediaType');
  });
});

describe('mcpTools and remote content', () => {
  it('keeps parts, the structured value and the output schema across toolctx → MCP → toolctx', async () => {
    const client = await connected(serveMcp(createRuntime({ tools })));
    const local = await mcpTools(client);
    expect(local.find((tool) => tool.name === 'sum')!.outputJsonSchema).toMatchObject({ type: 'object' });
    const run = createRuntime({ tools: local }).startRun();
    const chart = await run.call({ tool: 'chart', args: {} });
    expect(chart).toMatchObject({ ok: true, value: { points: 3 }, parts });
    if (chart.ok) expect(chart.content).not.toContain(PNG);
    // A plain structured result stays a plain value: its text was only that value as JSON.
    expect(await run.call({ tool: 'sum', args: { a: 2, b: 2 } })).toEqual({
      ok: true,
      value: { sum: 4 },
      content: '{"sum":4}',
    });
    // And the round trip serves the same MCP tool list entry.
    const again = await connected(serveMcp(createRuntime({ tools: local })));
    const [listed] = (await again.listTools()).tools.filter((tool) => tool.name === 'sum');
    expect(listed!.outputSchema).toMatchObject({ properties: { sum: { type: 'number' } } });
  });

  it('keeps a content type MCP does not define as a text note instead of failing', async () => {
    // The SDK's own server refuses to send such content, so this server answers JSON-RPC by hand.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const answers: Record<string, unknown> = {
      initialize: {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'odd', version: '1' },
      },
      'tools/list': {
        tools: [{ name: 'odd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      },
      'tools/call': {
        content: [
          { type: 'text', text: 'before' },
          { type: 'hologram', data: 'xyz' },
        ],
      },
    };
    serverSide.onmessage = (message) => {
      const { id, method } = message as { id?: number; method: string };
      if (id !== undefined)
        void serverSide.send({ jsonrpc: '2.0', id, result: answers[method] ?? {} } as never);
    };
    await serverSide.start();
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    const run = createRuntime({ tools: await mcpTools(client) }).startRun();
    const result = await run.call({ tool: 'odd', args: {} });
    expect(result).toMatchObject({
      ok: true,
      parts: [
        { type: 'text', text: 'before' },
        { type: 'text', text: '[MCP content of type "hologram", not shown]' },
      ],
      content: 'before\n[MCP content of type "hologram", not shown]',
    });
  });

  it('reads an SDK server’s structured result as the value, and its text beside it as a part', async () => {
    const server = new McpServer({ name: 'sdk', version: '1.0.0' });
    server.registerTool(
      'weather',
      { description: 'Weather.', inputSchema: {}, outputSchema: { celsius: z.number() } },
      () => ({
        content: [{ type: 'text' as const, text: JSON.stringify({ celsius: 21 }, null, 2) }],
        structuredContent: { celsius: 21 },
      }),
    );
    server.registerTool(
      'say',
      { description: 'Says.', inputSchema: {}, outputSchema: { ok: z.boolean() } },
      () => ({
        content: [{ type: 'text' as const, text: 'All good.' }],
        structuredContent: { ok: true },
      }),
    );
    const run = createRuntime({ tools: await mcpTools(await connected(server)) }).startRun();
    expect(await run.call({ tool: 'weather', args: {} })).toEqual({
      ok: true,
      value: { celsius: 21 },
      content: '{"celsius":21}',
    });
    expect(await run.call({ tool: 'say', args: {} })).toMatchObject({
      ok: true,
      value: { ok: true },
      parts: [{ type: 'text', text: 'All good.' }],
      content: 'All good.',
    });
  });
});
