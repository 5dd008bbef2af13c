// A tool's ask where users meet it: the MCP test Worker (packages/edge/src/mcp/test-worker.ts) under
// `wrangler dev`, and the official SDK client over real HTTP. Its /mcp-ask serves the example
// Worker's schedule_meeting, whose ask reaches the client as elicitation/create on the call's
// stream; the client's answer, POSTed on its own, goes back to the tool in the session's object.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ElicitRequest, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/mcp/wrangler.test.jsonc' });
});
afterAll(() => dev?.stop());

describe('a tool’s ask over MCP under wrangler dev', () => {
  it('asks schedule_meeting’s form over HTTP and the tool goes on with the accepted values', async () => {
    const client = new Client(
      { name: 'asked', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const asked: ElicitRequest[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return { action: 'accept', content: { day: 'Thursday', minutes: 30, notes: 'bring numbers' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp-ask`)));
    const result = await client.callTool({ name: 'schedule_meeting', arguments: { topic: 'roadmap' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      scheduled: true,
      topic: 'roadmap',
      day: 'Thursday',
      minutes: 30,
      notes: 'bring numbers',
    });
    expect(asked.map((request) => request.params)).toEqual([
      {
        mode: 'form',
        message: 'When should we meet about “roadmap”?',
        requestedSchema: expect.objectContaining({ required: ['day', 'minutes'] }),
      },
    ]);
    await client.close();
  });
});
