// The MCP SDK v2 client, as an MCP 2026 application uses it (automatic version negotiation, an
// elicitation handler), against the Worker's /mcp under `wrangler dev`: the conformance Worker,
// whose mountMcp serves 2025-11-25 sessions and 2026-07-28 requests. One handler answers a tool's
// ask on either revision: pushed on the call's stream (2025), or as an input_required round the
// client fulfils and retries (2026).

import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';

let dev: WranglerDev;

beforeAll(async () => {
  dev = await startWranglerDev({
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    config: 'conformance/worker/wrangler.jsonc',
  });
}, 180_000);
afterAll(() => dev?.stop());

async function connect(mode: 'auto' | 'legacy') {
  const asked: string[] = [];
  const client = new Client(
    { name: 'toolctx-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { name: 'Ana' } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp`)));
  return { client, asked };
}

const textOf = (result: { content?: unknown }) => (result.content as { text?: string }[])[0]?.text;

describe("the MCP SDK v2 client against the Worker's /mcp", () => {
  it('negotiates 2026-07-28, lists and calls the tools, and answers a tool’s ask through an input_required round', async () => {
    const { client, asked } = await connect('auto');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('test_input_required_result_elicitation');
    expect(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} }))).toBe(
      'This is a simple text response for testing.',
    );
    const greeted = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    expect(textOf(greeted)).toBe('Hello, Ana!');
    expect(asked).toEqual(['What is your name?']);
    await client.close();
  });

  it('pinned to 2025-11-25, gets the same ask pushed on the call’s stream and answers it with the same handler', async () => {
    const { client, asked } = await connect('legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const greeted = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    expect(textOf(greeted)).toBe('Hello, Ana!');
    expect(asked).toEqual(['What is your name?']);
    await client.close();
  });
});
