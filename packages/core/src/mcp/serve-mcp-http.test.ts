// serveMcpHttp: one fetch serving MCP 2025-11-25 sessions and 2026-07-28 stateless requests, driven
// by the SDK v2 client (its automatic version negotiation picks 2026; pinned legacy, 2025) and by
// raw requests where a client would hide what is checked.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { parseSse } from '../sse/index.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcpHttp } from './serve-mcp-http.js';

const chatty = defineTool({
  name: 'chatty',
  description: 'Logs at info and at warning, then answers.',
  inputSchema: z.object({}),
  execute: (_args, ctx) => {
    ctx.log('info', 'an info entry');
    ctx.log('warning', 'a warning entry');
    return 'done';
  },
});
const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ sum: a + b }),
});

const mcp = serveMcpHttp(createRuntime({ tools: [add, chatty] }), {
  identify: ({ authInfo }) => (authInfo ? { tenant: 't', principal: authInfo.clientId } : undefined),
});
afterAll(() => mcp.close());

const url = 'http://localhost/mcp';
const auth = (principal: string) => ({ authInfo: { token: 'x', clientId: principal, scopes: [] } });
const fetchAs =
  (principal: string) =>
  (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    return mcp.fetch(new Request(input, init), auth(principal));
  };

async function connect(mode: 'auto' | 'legacy', principal = 'ana') {
  const client = new Client({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: fetchAs(principal) });
  await client.connect(transport);
  return { client, transport };
}

function modern(method: string, params: Record<string, unknown>, meta: Record<string, unknown> = {}) {
  return new Request(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          ...meta,
        },
      },
    }),
  });
}

/** The methods of the messages a response carried, as JSON or as server-sent events. */
async function methodsOf(response: Response): Promise<string[]> {
  const text = await response.text();
  const messages = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? parseSse(text).map((event) => JSON.parse(event.data))
    : [JSON.parse(text)];
  return messages.map((message: { method?: string }) => message.method ?? 'result');
}

describe('serveMcpHttp', () => {
  it('serves a 2026-07-28 client and a 2025-11-25 client the same tools at one URL', async () => {
    const modernClient = await connect('auto');
    expect(modernClient.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(modernClient.transport.sessionId).toBeUndefined();
    const legacyClient = await connect('legacy');
    expect(legacyClient.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(legacyClient.transport.sessionId).toMatch(/^mcp_/);
    for (const { client } of [modernClient, legacyClient]) {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add', 'chatty']);
      const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(result.structuredContent).toEqual({ sum: 5 });
      await client.close();
    }
  });

  it('answers a 2025 session only to the identity that opened it: to another, the 404 of an unknown session', async () => {
    const { client, transport } = await connect('legacy', 'ana');
    const list = (principal: string) =>
      mcp.fetch(
        new Request(url, {
          method: 'POST',
          headers: {
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            'mcp-session-id': transport.sessionId!,
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
        }),
        auth(principal),
      );
    const stranger = await list('bob');
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toMatchObject({ error: { message: 'Session not found' } });
    expect((await list('ana')).status).toBe(200);
    await client.close();
  });

  it('gives a 2026 request log entries only from the level its _meta names, and none without one', async () => {
    const call = { name: 'chatty', arguments: {} };
    expect(await methodsOf(await mcp.fetch(modern('tools/call', call)))).toEqual(['result']);
    const warned = await mcp.fetch(
      modern('tools/call', call, { 'io.modelcontextprotocol/logLevel': 'warning' }),
    );
    expect(await methodsOf(warned)).toEqual(['notifications/message', 'result']);
  });

  it('refuses a Host outside allowedHosts with 403, on either revision, before anything runs', async () => {
    const foreign = new Request('http://evil.example/mcp', modern('tools/list', {}));
    expect((await mcp.fetch(foreign)).status).toBe(403);
    const legacy = new Request('http://evil.example/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect((await mcp.fetch(legacy)).status).toBe(403);
  });
});
