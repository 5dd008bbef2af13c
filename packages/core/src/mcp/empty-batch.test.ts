import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import { serveMcp } from './serve-mcp.js';

// JSON-RPC 2.0: an empty batch is answered with one Invalid Request error. The SDK's transport
// alone answers `[]` with 202, as a batch of notifications.
const headers = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-06-18',
};
const invalidRequest = {
  jsonrpc: '2.0',
  error: {
    code: -32600,
    message: 'Invalid Request: an empty batch ([]) holds no message; send one JSON-RPC message.',
  },
  id: null,
};

async function statelessServer() {
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await serveMcp(createRuntime({ tools: [] })).connect(transport);
  return transport;
}
const post = (body: BodyInit) =>
  new Request('http://mcp.test/mcp', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);

/** A body sent in pieces, with no declared length. */
function pieces(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });
}

describe('serveMcp over streamable HTTP: an empty batch', () => {
  it('is one Invalid Request error (-32600), as text, in pieces, or parsed by the host', async () => {
    for (const request of [post('[]'), post(' [\n] '), post(pieces('[', ' ', ']'))]) {
      const response = await (await statelessServer()).handleRequest(request);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(invalidRequest);
    }
    const parsed = await (await statelessServer()).handleRequest(post('ignored'), { parsedBody: [] });
    expect(parsed.status).toBe(400);
    expect(await parsed.json()).toEqual(invalidRequest);
  });

  it('hands every other body on whole, however it arrives', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
    const long = JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      method: 'ping',
      params: { _meta: { pad: 'x'.repeat(5000) } },
    });
    const answers = [
      await (await statelessServer()).handleRequest(post(ping)),
      await (await statelessServer()).handleRequest(
        post(pieces(long.slice(0, 10), long.slice(10, 100), long.slice(100))),
      ),
      await (await statelessServer()).handleRequest(post(`[${ping}]`)),
    ];
    expect(await answers[0]?.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    expect(await answers[1]?.json()).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
    expect(answers[2]?.status).toBe(200);
    // A notification alone is still the SDK's 202.
    const notification = await (await statelessServer()).handleRequest(
      post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })),
    );
    expect(notification.status).toBe(202);
  });
});
