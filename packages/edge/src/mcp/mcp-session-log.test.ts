import { SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

// ctx.log through the Worker's /mcp: the official SDK client over streamable HTTP, in workerd.
const url = new URL('http://toolctx.test/mcp');

async function connect() {
  const client = new Client({ name: 'log-client', version: '1.0.0' });
  const received: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    received.push(notification.params);
  });
  const posts: string[] = [];
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: async (input, init) => {
      const response = await SELF.fetch(new Request(input, init));
      if (init?.method === 'POST' && String(init.body).includes('tools/call'))
        posts.push(await response.clone().text());
      return response;
    },
  });
  await client.connect(transport);
  return { client, received, posts };
}

describe('ctx.log through the MCP door in workerd', () => {
  it("sends every entry as notifications/message on the call's own response stream, before the result", async () => {
    const { client, received, posts } = await connect();
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const result = await client.callTool({ name: 'steps', arguments: { count: 2, ms: 1, log: true } });
    expect(result.content).toEqual([{ type: 'text', text: '2 steps done' }]);
    expect(received).toEqual([
      { level: 'debug', logger: 'steps', data: 'step 1' },
      { level: 'debug', logger: 'steps', data: 'step 2' },
      { level: 'notice', logger: 'steps', data: { message: 'all steps done', data: { count: 2 } } },
    ]);
    const stream = posts.join('\n');
    expect(stream.indexOf('notifications/message')).toBeGreaterThan(-1);
    expect(stream.lastIndexOf('notifications/message')).toBeLessThan(stream.indexOf('2 steps done'));
    await client.close();
  });

  it('sends nothing below the level the session set with logging/setLevel', async () => {
    const { client, received } = await connect();
    await client.setLoggingLevel('notice');
    await client.callTool({ name: 'steps', arguments: { count: 3, ms: 1, log: true } });
    expect(received).toEqual([
      { level: 'notice', logger: 'steps', data: { message: 'all steps done', data: { count: 3 } } },
    ]);
    await client.close();
  });
});
