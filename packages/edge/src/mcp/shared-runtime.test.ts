import { SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';

// The test Worker gives one runtimeFor to createToolServer, createRunHost and createMcpSession
// (/shared/http and /shared/mcp): the isolate's door, run objects and MCP sessions serve one
// runtime, so what a session's call raised is what a live run of the same identity sees.

const asAna = { authorization: 'Bearer ana', 'content-type': 'application/json' };

async function http(path: string, body: unknown): Promise<Response> {
  return SELF.fetch(`http://toolctx.test/shared/http${path}`, {
    method: 'POST',
    headers: asAna,
    body: JSON.stringify(body),
  });
}

async function mcpClient(): Promise<Client> {
  const client = new Client({ name: 'shared-runtime', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://toolctx.test/shared/mcp'), {
    requestInit: { headers: { authorization: 'Bearer ana' } },
    fetch: (input, init) => SELF.fetch(new Request(input, init)),
  });
  await client.connect(transport);
  return client;
}

describe('one runtimeFor behind the HTTP door, the run host and createMcpSession', () => {
  it('serves one runtime: taint a session’s call raised holds for a live run of the same identity at the HTTP door', async () => {
    const { runId } = (await (await http('/runs', {})).json()) as { runId: string };
    const before = await http(`/runs/${runId}/calls`, { tool: 'peek', args: {} });
    expect(await before.json()).toMatchObject({ ok: true, value: { private: false } });
    const client = await mcpClient();
    const read = await client.callTool({ name: 'read_mail', arguments: {} });
    expect(read.isError).toBeFalsy();
    const after = await http(`/runs/${runId}/calls`, { tool: 'peek', args: {} });
    expect(await after.json()).toMatchObject({ ok: true, value: { private: true, untrusted: false } });
    // A second session, and the Worker's own requests, made no runtime of their own.
    const other = await mcpClient();
    expect((await other.callTool({ name: 'peek', arguments: {} })).structuredContent).toMatchObject({
      private: true,
    });
    const { made } = (await (await SELF.fetch('http://toolctx.test/shared/runtimes')).json()) as {
      made: number;
    };
    expect(made).toBe(1);
    await client.close();
    await other.close();
    await SELF.fetch(`http://toolctx.test/shared/http/runs/${runId}`, { method: 'DELETE', headers: asAna });
  });
});
