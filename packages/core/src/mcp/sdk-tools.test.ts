import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { type ServeMcpOptions, serveMcp } from './serve-mcp.js';

const runtime = createRuntime({
  tools: [
    defineTool({
      name: 'echo',
      description: 'Says it back.',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    }),
    defineTool({
      name: 'save',
      description: 'Saves a note.',
      inputSchema: z.object({}),
      effect: 'write',
      execute: () => 'saved',
    }),
  ],
});

/** A server with the host's own SDK tools beside the runtime's, and a client that can answer them. */
async function connect(add: (server: McpServer) => void, options: ServeMcpOptions = {}) {
  const server = serveMcp(runtime, options);
  add(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: 'sdk-tools-client', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ana' } }));
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: 'assistant',
    content: { type: 'text', text: 'a haiku' },
    model: 'test-model',
  }));
  await client.connect(clientSide);
  return client;
}

const greet = (server: McpServer) =>
  server.registerTool(
    'greet',
    { description: 'Asks the person for their name.', inputSchema: { greeting: z.string() } },
    async ({ greeting }, extra) => {
      const answer = await server.server.elicitInput(
        {
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        { relatedRequestId: extra.requestId },
      );
      return { content: [{ type: 'text', text: `${greeting}, ${String(answer.content?.name)}` }] };
    },
  );

describe('tools the host adds with the SDK’s registerTool', () => {
  it('are listed after the runtime’s tools', async () => {
    const client = await connect(greet);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'save', 'greet']);
    expect(tools[2]!.inputSchema.properties).toHaveProperty('greeting');
    await client.close();
  });

  it('are called through the SDK, and may ask the client with its own API', async () => {
    const client = await connect((server) => {
      greet(server);
      server.registerTool('haiku', { description: 'Samples a haiku.' }, async (extra) => {
        const reply = await server.server.createMessage(
          { messages: [{ role: 'user', content: { type: 'text', text: 'A haiku?' } }], maxTokens: 50 },
          { relatedRequestId: extra.requestId },
        );
        return { content: [{ type: 'text', text: `LLM said: ${(reply.content as { text: string }).text}` }] };
      });
    });
    expect((await client.callTool({ name: 'greet', arguments: { greeting: 'Hello' } })).content).toEqual([
      { type: 'text', text: 'Hello, Ana' },
    ]);
    expect((await client.callTool({ name: 'haiku', arguments: {} })).content).toEqual([
      { type: 'text', text: 'LLM said: a haiku' },
    ]);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    await client.close();
  });

  it('leave a name that is neither theirs nor the runtime’s an unknown-tool error', async () => {
    const client = await connect(greet);
    const result = await client.callTool({ name: 'nope', arguments: {} });
    expect((result.structuredContent as { error: { kind: string } }).error.kind).toBe('unknown-tool');
    await client.close();
  });

  it('cannot take the name of a runtime tool: registering one throws at once', () => {
    const server = serveMcp(runtime);
    expect(() =>
      server.registerTool('echo', { description: 'Another echo.' }, () => ({ content: [] })),
    ).toThrow(/"echo" is a tool of the runtime/);
  });

  it('are offered in the plan phase only when marked read-only', async () => {
    const client = await connect(
      (server) => {
        greet(server);
        server.registerTool('peek', { description: 'Reads.', annotations: { readOnlyHint: true } }, () => ({
          content: [{ type: 'text', text: 'peeked' }],
        }));
      },
      { phase: 'plan' },
    );
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'peek']);
    const refused = await client.callTool({ name: 'greet', arguments: { greeting: 'Hi' } });
    expect((refused.structuredContent as { error: { kind: string } }).error.kind).toBe('unknown-tool');
    await client.close();
  });
});
