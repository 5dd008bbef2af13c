import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  EmptyResultSchema,
  type JSONRPCMessage,
  LoggingMessageNotificationSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcp } from './serve-mcp.js';

const chatty = defineTool({
  name: 'chatty',
  description: 'Logs once at every level, the last entry with data.',
  inputSchema: z.object({}),
  execute: (_args, ctx) => {
    ctx.log('debug', 'looking');
    ctx.log('info', 'found 2');
    ctx.log('warning', 'one was stale');
    ctx.log('error', 'one failed', { id: 7 });
    return 'done';
  },
});

async function connect() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: { message: JSONRPCMessage; relatedRequestId?: RequestId }[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    sent.push({ message, relatedRequestId: options?.relatedRequestId });
    return send(message, options);
  };
  await serveMcp(createRuntime({ tools: [chatty] })).connect(serverSide);
  const client = new Client({ name: 'log-client', version: '1.0.0' });
  const received: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    received.push(notification.params);
  });
  await client.connect(clientSide);
  return { client, received, sent };
}

describe('serveMcp and ctx.log', () => {
  it('declares the logging capability', async () => {
    const { client } = await connect();
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await client.close();
  });

  it('sends every entry as notifications/message, the tool as logger, before the result', async () => {
    const { client, received } = await connect();
    const result = await client.callTool({ name: 'chatty', arguments: {} });
    expect(received).toEqual([
      { level: 'debug', logger: 'chatty', data: 'looking' },
      { level: 'info', logger: 'chatty', data: 'found 2' },
      { level: 'warning', logger: 'chatty', data: 'one was stale' },
      { level: 'error', logger: 'chatty', data: { message: 'one failed', data: { id: 7 } } },
    ]);
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    await client.close();
  });

  it('writes data JSON cannot hold as JSON (a bigint as its digits, a Map as an object, a Set as an array, a cycle as "[cycle]")', async () => {
    const odd = defineTool({
      name: 'odd',
      description: 'Logs data that is plain but not JSON.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        ctx.log('info', 'sizes', { big: 2n ** 70n, map: new Map([['a', 1]]), set: new Set([1]) });
        const loop: Record<string, unknown> = {};
        loop.self = loop;
        ctx.log('info', 'a loop', loop);
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await serveMcp(createRuntime({ tools: [odd] })).connect(serverSide);
    const client = new Client({ name: 'log-client', version: '1.0.0' });
    const received: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void received.push(n.params.data));
    await client.connect(clientSide);
    await client.callTool({ name: 'odd', arguments: {} });
    expect(received).toEqual([
      { message: 'sizes', data: { big: '1180591620717411303424', map: { a: 1 }, set: [1] } },
      { message: 'a loop', data: { self: '[cycle]' } },
    ]);
    await client.close();
  });

  it('sends nothing below the level the client set with logging/setLevel', async () => {
    const { client, received } = await connect();
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'chatty', arguments: {} });
    expect(received.map((params) => (params as { level: string }).level)).toEqual(['warning', 'error']);
    await client.setLoggingLevel('debug');
    received.length = 0;
    await client.callTool({ name: 'chatty', arguments: {} });
    expect(received).toHaveLength(4);
    await client.close();
  });

  it('refuses a level outside the eight and keeps the one set before', async () => {
    const { client, received } = await connect();
    await client.setLoggingLevel('error');
    await expect(
      client.request({ method: 'logging/setLevel', params: { level: 'loud' } }, EmptyResultSchema),
    ).rejects.toThrow(/level/i);
    await client.callTool({ name: 'chatty', arguments: {} });
    expect(received.map((params) => (params as { level: string }).level)).toEqual(['error']);
    await client.close();
  });

  it("sends the entries on the call's own response stream", async () => {
    const { client, sent } = await connect();
    await client.callTool({ name: 'chatty', arguments: {} });
    const logs = sent.filter(
      ({ message }) => 'method' in message && message.method === 'notifications/message',
    );
    const answer = sent.find(({ message }) => 'result' in message && 'content' in message.result);
    expect(logs).toHaveLength(4);
    const callId = answer && 'id' in answer.message ? answer.message.id : undefined;
    expect(callId).toBeDefined();
    expect(logs.every(({ relatedRequestId }) => relatedRequestId === callId)).toBe(true);
    await client.close();
  });
});
