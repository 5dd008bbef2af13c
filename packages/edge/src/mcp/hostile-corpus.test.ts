import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { base, type Case, callTool, messagesOf, openSession, rpc, url } from '../test-utils/mcp.js';

// A corpus of hostile MCP traffic, raw JSON-RPC over streamable HTTP, against the test Worker in
// workerd. Each answer must be a 4xx at the HTTP layer with a JSON-RPC error body, a JSON-RPC
// error, or an `isError` result carrying an ErrorInfo: never a 5xx, a stack trace or a file path.

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const transport: Case[] = [
  { name: 'malformed JSON', body: '{"jsonrpc":"2.0",' },
  { name: 'not JSON at all', body: 'hello' },
  { name: 'an empty body', body: '' },
  { name: 'a JSON number', body: '42' },
  { name: 'an empty batch', body: '[]' },
  { name: 'a message without jsonrpc', body: '{"id":1,"method":"tools/list"}' },
  { name: 'jsonrpc 1.0', body: '{"jsonrpc":"1.0","id":1,"method":"tools/list"}' },
  { name: 'a numeric method', body: '{"jsonrpc":"2.0","id":1,"method":5}' },
  { name: 'text/plain', body: rpc('tools/list'), headers: { 'content-type': 'text/plain' } },
  { name: 'no Accept for SSE', body: rpc('tools/list'), headers: { accept: 'application/json' } },
  { name: 'Accept */* only', body: rpc('tools/list'), headers: { accept: 'text/html' } },
  { name: 'an unknown session id', body: rpc('tools/list'), session: 'f'.repeat(64) },
  { name: 'a session id that is not hex', body: rpc('tools/list'), session: '../../etc' },
  { name: 'a session id of 4 KiB', body: rpc('tools/list'), session: 'a'.repeat(4096) },
  { name: 'no session id after initialize', body: rpc('tools/list'), session: 'none' },
  { name: 'a PUT', method: 'PUT', body: rpc('tools/list') },
  {
    name: 'a forged identity header',
    body: callTool('whoami', {}),
    headers: { 'x-toolctx-identity': '{"tenant":"root"}' },
  },
  {
    name: 'a second initialize',
    body: rpc('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    }),
  },
  {
    name: 'an unsupported protocol version header',
    body: rpc('tools/list'),
    headers: { 'mcp-protocol-version': '1999-01-01' },
  },
];

const requests: Case[] = [
  { name: 'an unknown method', body: rpc('tools/destroy') },
  { name: 'a method on the prototype', body: rpc('__proto__') },
  { name: 'tools/call without params', body: rpc('tools/call') },
  { name: 'tools/call with params as an array', body: rpc('tools/call', ['add']) },
  { name: 'a tool name that is a number', body: callTool(5, {}) },
  { name: 'a tool name that is null', body: callTool(null, {}) },
  { name: 'an unknown tool', body: callTool('rm_rf', {}) },
  { name: 'an unknown tool named __proto__', body: callTool('__proto__', {}) },
  { name: 'an unknown tool named constructor', body: callTool('constructor', {}) },
  { name: 'a tool name with a newline', body: callTool('add\n', { a: 1, b: 2 }) },
  { name: 'a tool name of 10 000 characters', body: callTool('x'.repeat(10_000), {}) },
  { name: 'arguments of the wrong type', body: callTool('add', { a: 'one', b: 2 }) },
  { name: 'arguments missing', body: callTool('add', {}) },
  { name: 'arguments as an array', body: callTool('add', [1, 2]) },
  { name: 'arguments as a string', body: callTool('add', 'a=1') },
  {
    name: 'arguments with __proto__',
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"__proto__":{"a":1},"b":2}}}',
  },
  {
    name: 'arguments nested 100 000 deep',
    body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":${deep(100_000)},"b":2}}}`,
  },
  {
    name: 'a progress token that is an object',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: { progressToken: { x: 1 } } },
    }),
  },
  { name: 'a request id that is an object', body: '{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}' },
  {
    name: 'a cancel for a request that does not exist',
    body: JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 999, reason: 'x' },
    }),
  },
  {
    name: 'a batch of an unknown tool and bad arguments',
    body: `[${callTool('nope', {})},${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: [] } } })}]`,
  },
  { name: 'a response the server never asked for', body: '{"jsonrpc":"2.0","id":77,"result":{}}' },
];

const corpus = [...transport, ...requests];
const STACK = /\bat .*[(:]\d+|\.(ts|js|mjs):\d+|\/src\/|node_modules|file:\/\//;

/** Whether `message` is a JSON-RPC error, or a tool result flagged isError with an ErrorInfo. */
function isRefusal(message: unknown): boolean {
  const m = message as { error?: { code?: unknown; message?: unknown }; result?: Record<string, unknown> };
  if (m.error) return typeof m.error.code === 'number' && typeof m.error.message === 'string';
  const result = m.result as { isError?: boolean; structuredContent?: { error?: Record<string, unknown> } };
  const info = result?.structuredContent?.error;
  return result?.isError === true && typeof info?.kind === 'string' && typeof info?.message === 'string';
}

describe('MCP door: a hostile-input corpus in workerd', () => {
  it('has 41 cases, the number SECURITY.md gives', () => {
    expect(corpus.length).toBe(41);
  });

  it.each(corpus.map((c) => [c.name, c] as const))(
    '%s → refused as data, no 5xx, no stack',
    async (_name, c) => {
      const session = await openSession();
      const headers: Record<string, string> = { ...base, ...c.headers };
      if (c.session === undefined) headers['mcp-session-id'] = session;
      else if (c.session !== 'none') headers['mcp-session-id'] = c.session;
      const response = await SELF.fetch(url, { method: c.method ?? 'POST', headers, body: c.body });
      const text = await response.text();
      expect(response.status, text).toBeLessThan(500);
      expect(text).not.toMatch(STACK);
      if (response.status === 202) {
        // A notification or a stray response: accepted and ignored, with nothing to say.
        expect(text).toBe('');
        return;
      }
      const messages = messagesOf(text, response.headers.get('content-type'));
      if (response.status >= 400) {
        expect(messages).toHaveLength(1);
        expect(messages[0], text).toMatchObject({
          jsonrpc: '2.0',
          error: { code: expect.any(Number), message: expect.any(String) },
        });
        return;
      }
      expect(response.status, text).toBe(200);
      // The forged identity header is dropped by the Worker: the call runs anonymous.
      if (c.name === 'a forged identity header') {
        expect(messages[0]).toMatchObject({ result: { structuredContent: { identity: null } } });
        return;
      }
      expect(messages.length, text).toBeGreaterThan(0);
      for (const message of messages) expect(isRefusal(message), JSON.stringify(message)).toBe(true);
    },
  );
});
