// Tool metadata across MCP: toolctx tools served by serveMcp, listed by the SDK client, and made
// local again by mcpTools, over the SDK's in-memory transport.
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { mcpTools } from './mcp-tools.js';
import { serveMcp } from './serve-mcp.js';

const tools = [
  defineTool({
    name: 'search_notes',
    title: 'Search notes',
    description: 'Finds notes that mention a word.',
    inputSchema: z.object({ word: z.string(), limit: z.number().optional() }),
    execute: () => [],
  }),
  defineTool({
    name: 'save_note',
    title: 'Save a note',
    description: 'Saves a note in the workspace.',
    inputSchema: z.object({ text: z.string() }),
    effect: 'write',
    idempotent: true,
    execute: () => 'saved',
  }),
  defineTool({
    name: 'email_note',
    title: 'Email a note',
    description: 'Emails a note to someone.',
    inputSchema: z.object({ to: z.string(), text: z.string() }),
    effect: 'send',
    execute: () => 'sent',
  }),
  defineTool({
    name: 'untitled',
    description: 'Has no title.',
    inputSchema: z.object({}),
    execute: () => 'ok',
  }),
];

async function connectedClient(server: Pick<McpServer, 'connect'> = serveMcp(createRuntime({ tools }))) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'round-trip', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('tool metadata over MCP', () => {
  it('publishes each tool with its title and the annotations its effect (and idempotent) implies', async () => {
    const { tools: listed } = await (await connectedClient()).listTools();
    expect(listed.map(({ name, title, annotations }) => ({ name, title, annotations }))).toEqual([
      {
        name: 'search_notes',
        title: 'Search notes',
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      {
        name: 'save_note',
        title: 'Save a note',
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          openWorldHint: false,
          idempotentHint: true,
        },
      },
      {
        name: 'email_note',
        title: 'Email a note',
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      },
      { name: 'untitled', title: undefined, annotations: { readOnlyHint: true, openWorldHint: false } },
    ]);
  });

  it('keeps name, description, input JSON Schema, effect and title through a toolctx → MCP → toolctx round trip', async () => {
    const local = await mcpTools(await connectedClient());
    const shape = (tool: (typeof tools)[number]) => ({
      name: tool.name,
      description: tool.description,
      inputJsonSchema: tool.inputJsonSchema,
      effect: tool.effect,
      title: tool.title,
    });
    expect(local.map(shape)).toEqual(tools.map(shape));
  });

  it('offers a plan-phase run every read tool of a toolctx server, and only those', async () => {
    const local = await mcpTools(await connectedClient());
    const run = createRuntime({ tools: local }).startRun({ phase: 'plan' });
    expect(run.listTools().map((tool) => tool.name)).toEqual(['search_notes', 'untitled']);
  });

  it("takes a plain MCP server's title from annotations.title when the tool has no title", async () => {
    const server = new McpServer({ name: 'plain', version: '1.0.0' });
    server.registerTool(
      'files.read',
      { description: 'Reads a file.', annotations: { title: 'Read a file', readOnlyHint: true } },
      () => ({ content: [{ type: 'text', text: 'x' }] }),
    );
    const [tool] = await mcpTools(await connectedClient(server));
    expect(tool).toMatchObject({ name: 'files_read', title: 'Read a file', effect: 'read' });
  });
});
