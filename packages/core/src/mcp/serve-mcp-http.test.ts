// serveMcpHttp: one fetch serving MCP 2025-11-25 sessions and 2026-07-28 stateless requests, driven
// by the SDK v2 client (its automatic version negotiation picks 2026; pinned legacy, 2025) and by
// raw requests where a client would hide what is checked.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { parseSse } from '../sse/index.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcpHttp, serveMcpStateless } from './serve-mcp-http.js';

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

  it('refuses an initialize past maxSessions with 503 naming the option; a closed session frees its place', async () => {
    const small = serveMcpHttp(createRuntime({ tools: [add] }), { maxSessions: 1 });
    const client = new Client({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: (input, init) => small.fetch(new Request(input, init)),
    });
    await client.connect(transport);
    const initialize = () =>
      small.fetch(
        new Request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: 'c', version: '1' },
            },
          }),
        }),
      );
    const refused = await initialize();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringMatching(/maxSessions/) } });
    await transport.terminateSession();
    await client.close();
    expect((await initialize()).status).toBe(200);
    await small.close();
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

describe("serveMcpStateless: a tool's asks as MCP 2026 input_required rounds", () => {
  let runs = 0;
  const greet = defineTool({
    name: 'greet',
    description: 'Asks for a name, then greets it.',
    inputSchema: z.object({ loud: z.boolean().optional() }),
    execute: async ({ loud }, ctx) => {
      runs++;
      const answer = await ctx.ask({
        key: 'who',
        message: 'What is your name?',
        schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      const name = answer.action === 'accept' ? String(answer.values.name) : 'nobody';
      return loud ? `HELLO, ${name.toUpperCase()}!` : `Hello, ${name}!`;
    },
  });
  const other = defineTool({ ...greet, name: 'other' });
  const sent: string[] = [];
  const send = defineTool({
    name: 'send',
    description: 'Sends a note; needs approval.',
    inputSchema: z.object({ to: z.string() }),
    needsApproval: true,
    execute: ({ to }) => {
      sent.push(to);
      return `sent to ${to}`;
    },
  });
  // The runtime leaves each approval pending: the door asks the person in its round.
  const approval = { request: async () => 'pending' as const };
  const rounds = serveMcpStateless(createRuntime({ tools: [greet, other, send], approval }), {
    requestStateKey: 'a-test-key-that-is-at-least-32-bytes-long',
    identify: ({ authInfo }) => (authInfo ? { tenant: 't', principal: authInfo.clientId } : undefined),
  });
  afterAll(() => rounds.close());
  afterEach(() => vi.useRealTimers());

  interface Answer {
    result?: {
      resultType?: string;
      inputRequests?: Record<string, { method: string }>;
      requestState?: string;
      content?: { text: string }[];
    };
    error?: { code: number; message: string };
  }
  const canElicit = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
  async function call(
    params: Record<string, unknown>,
    principal = 'ana',
    meta: Record<string, unknown> = canElicit,
  ): Promise<Answer> {
    const response = await rounds.fetch(modern('tools/call', params, meta), auth(principal));
    const text = await response.text();
    const messages = response.headers.get('content-type')?.startsWith('text/event-stream')
      ? parseSse(text).map((event) => JSON.parse(event.data))
      : [JSON.parse(text)];
    return messages.at(-1);
  }
  const firstRound = async (args: Record<string, unknown> = {}) => {
    const { result } = await call({ name: 'greet', arguments: args });
    expect(result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { who: { method: 'elicitation/create' } },
    });
    return result!.requestState!;
  };
  const named = (name: string) => ({ who: { action: 'accept', content: { name } } });

  it('ends a round at the ask with a signed state; the retry carrying it back runs the same call with the answer', async () => {
    const requestState = await firstRound();
    const before = runs;
    const { result } = await call({
      name: 'greet',
      arguments: {},
      requestState,
      inputResponses: named('Ana'),
    });
    expect(result?.content?.[0]?.text).toBe('Hello, Ana!');
    expect(runs).toBe(before + 1);
  });

  it('answers -32021 to a client that did not declare elicitation, rather than a round it cannot answer', async () => {
    const { error } = await call({ name: 'greet', arguments: {} }, 'ana', {
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    expect(error).toMatchObject({ code: -32021 });
  });

  it('asks again, rather than failing, when the retry brings no fitting answer', async () => {
    const requestState = await firstRound();
    const { result } = await call({
      name: 'greet',
      arguments: {},
      requestState,
      inputResponses: { who: 42 },
    });
    expect(result).toMatchObject({ resultType: 'input_required', inputRequests: { who: {} } });
  });

  it('refuses with -32602, running nothing, a state changed by the client, used once already, or brought by another identity', async () => {
    const requestState = await firstRound();
    const flipped =
      requestState.slice(0, -2) + (requestState.at(-2) === 'A' ? 'B' : 'A') + requestState.at(-1);
    const before = runs;
    expect(
      (await call({ name: 'greet', arguments: {}, requestState: flipped, inputResponses: named('Eve') }))
        .error,
    ).toMatchObject({ code: -32602 });
    expect(
      (await call({ name: 'greet', arguments: {}, requestState, inputResponses: named('Eve') }, 'bob')).error,
    ).toMatchObject({ code: -32602 });
    expect(runs).toBe(before);
    expect(
      (await call({ name: 'greet', arguments: {}, requestState, inputResponses: named('Ana') })).result
        ?.content?.[0]?.text,
    ).toBe('Hello, Ana!');
    expect(
      (await call({ name: 'greet', arguments: {}, requestState, inputResponses: named('Ana') })).error,
    ).toMatchObject({ code: -32602 });
  });

  it('refuses with -32602 a state brought to another tool, or with other arguments', async () => {
    const requestState = await firstRound();
    const before = runs;
    expect(
      (await call({ name: 'other', arguments: {}, requestState, inputResponses: named('Ana') })).error,
    ).toMatchObject({ code: -32602, message: expect.stringMatching(/made for the tool "greet"/) });
    const again = await firstRound();
    expect(
      (
        await call({
          name: 'greet',
          arguments: { loud: true },
          requestState: again,
          inputResponses: named('Ana'),
        })
      ).error,
    ).toMatchObject({ code: -32602, message: expect.stringMatching(/arguments changed/) });
    expect(runs).toBe(before + 1); // the second first round
  });

  it('refuses with -32602 a state past its ten minutes', async () => {
    const requestState = await firstRound();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60_000);
    expect(
      (await call({ name: 'greet', arguments: {}, requestState, inputResponses: named('Ana') })).error,
    ).toMatchObject({ code: -32602 });
  });

  it('asks for an approval as a round of its own: accept runs the call once, decline denies it without running', async () => {
    const first = await call({ name: 'send', arguments: { to: 'ana@example.com' } });
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'toolctx.approval': { method: 'elicitation/create' } },
    });
    expect(JSON.stringify(first.result)).toContain('ana@example.com');
    expect(sent).toEqual([]);
    const approved = await call({
      name: 'send',
      arguments: { to: 'ana@example.com' },
      requestState: first.result!.requestState,
      inputResponses: { 'toolctx.approval': { action: 'accept', content: {} } },
    });
    expect(approved.result?.content?.[0]?.text).toBe('sent to ana@example.com');
    expect(sent).toEqual(['ana@example.com']);

    const again = await call({ name: 'send', arguments: { to: 'bob@example.com' } });
    const declined = await call({
      name: 'send',
      arguments: { to: 'bob@example.com' },
      requestState: again.result!.requestState,
      inputResponses: { 'toolctx.approval': { action: 'decline' } },
    });
    expect(JSON.stringify(declined.result)).toContain('approval-denied');
    expect(sent).toEqual(['ana@example.com']);
  });

  it('never takes an approval a retry brings without the round that asked for it', async () => {
    const forged = await call({
      name: 'send',
      arguments: { to: 'eve@example.com' },
      inputResponses: { 'toolctx.approval': { action: 'accept', content: {} } },
    });
    expect(forged.result).toMatchObject({ resultType: 'input_required' });
    expect(sent).not.toContain('eve@example.com');
  });
});
