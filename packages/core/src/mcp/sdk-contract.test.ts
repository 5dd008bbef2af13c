// What toolctx relies on from the MCP SDK v2 (`@modelcontextprotocol/server` 2.x), driven through the
// SDK's own handler: the web-standard `createMcpHandler(...).fetch` a Worker exports and a Node host
// wraps. docs/design/mcp-2026.md (section 1, "What v2 does for us") builds on each of these; when an
// SDK release changes one, this file fails before a door does. Runtime-neutral (fetch, Request,
// AbortController), so the core-in-workerd and core-in-chromium projects run it too.

import { type Client, SdkErrorCode as ClientSdkErrorCode } from '@modelcontextprotocol/client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type CreateMcpHandlerOptions,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  isLegacyRequest,
  type McpHandlerRequestOptions,
  type McpHttpHandler,
  type McpRequestContext,
  McpServer,
  type McpServerFactory,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  type RequestMetaEnvelope,
  type RequestStateCodec,
  type RequestStateCodecOptions,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { McpToolsClient } from './mcp-tools.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const TASKS = 'io.modelcontextprotocol/tasks';
const CAPS_KEY = CLIENT_CAPABILITIES_META_KEY;
const key = 'k'.repeat(32);

interface Seen {
  era?: McpRequestContext['era'];
  capabilities?: unknown;
  progressToken?: unknown;
  authInfo?: unknown;
  state?: unknown;
  inputResponses?: unknown;
  aborted?: Promise<unknown>;
}

/** One factory for every case: what toolctx's own factory registers, in miniature. */
function fixture() {
  const seen: Seen = {};
  const codec = createRequestStateCodec<{ step: number }>({ key, bind: () => 'anonymous' });
  let release: () => void = () => {};
  const factory: McpServerFactory = ({ era }) => {
    seen.era = era;
    const mcp = new McpServer(
      { name: 'contract', version: '1.0.0' },
      {
        capabilities: { tools: {}, resources: {}, extensions: { [TASKS]: {} } },
        requestState: {
          verify: async (state, ctx) => {
            if (state === 'refuse') throw new Error('refused by the hook');
            return codec.verify(state, ctx);
          },
        },
      },
    );
    const low = mcp.server;
    low.setRequestHandler('tools/list', () => ({
      tools: [{ name: 'greet', inputSchema: { type: 'object' } }],
    }));
    low.setRequestHandler('tools/call', async (request, ctx) => {
      // 2.4.0 publishes RequestMetaEnvelope as `{}`: the envelope's keys are read by name.
      seen.capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CAPS_KEY];
      seen.progressToken = ctx.mcpReq._meta?.progressToken;
      seen.authInfo = ctx.http?.authInfo;
      switch (request.params.name) {
        case 'slow': {
          const at = new Date(0).toISOString();
          // A task's flat CreateTaskResult, as the Tasks extension has it.
          return {
            resultType: 'task',
            taskId: 'task_1',
            status: 'working',
            createdAt: at,
            lastUpdatedAt: at,
            ttlMs: 60_000,
          } as never;
        }
        case 'ask': {
          const state = ctx.mcpReq.requestState<{ step: number }>();
          if (state === undefined) {
            return inputRequired({
              inputRequests: {
                user_name: inputRequired.elicit({
                  message: 'Your name?',
                  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
                }),
              },
              requestState: await codec.mint({ step: 1 }, ctx),
            });
          }
          seen.state = state;
          seen.inputResponses = ctx.mcpReq.inputResponses;
          return { content: [{ type: 'text', text: 'answered' }] };
        }
        case 'needs-tasks':
          throw new MissingRequiredClientCapabilityError({
            requiredCapabilities: { extensions: { [TASKS]: {} } },
          });
        case 'hang': {
          const signal = ctx.mcpReq.signal;
          seen.aborted = new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          release();
          await seen.aborted;
          return { content: [] };
        }
        default:
          return { content: [{ type: 'text', text: 'Hello' }] };
      }
    });
    low.setRequestHandler('resources/read', (request) => {
      throw new ResourceNotFoundError(request.params.uri);
    });
    // The Tasks extension's methods: only the schema-carrying form passes the 2026 era gate.
    const taskParams = z.object({ taskId: z.string() }).passthrough();
    low.setRequestHandler('tasks/get', { params: taskParams }, (params) => {
      if (params.taskId !== 'task_1') throw new ProtocolError(-32602, 'Unknown task');
      return { taskId: params.taskId, status: 'working' } as never;
    });
    low.setRequestHandler('tasks/cancel', { params: taskParams }, () => ({}));
    return mcp;
  };
  return {
    seen,
    factory,
    codec,
    started: () => new Promise<void>((resolve) => (release = resolve)),
  };
}

let nextId = 1;

interface PostOptions {
  /** The Mcp-Name header; `null` leaves it out. */
  name?: string | null;
  capabilities?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  signal?: AbortSignal;
  request?: McpHandlerRequestOptions;
}

/** A 2026-07-28 POST with the headers and `_meta` envelope the revision requires. */
function modernRequest(method: string, params: Record<string, unknown> = {}, options: PostOptions = {}) {
  const name = options.name === undefined ? (params.name ?? params.taskId) : options.name;
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        [CAPS_KEY]: options.capabilities ?? { elicitation: { form: {} } },
        ...options.meta,
      },
    },
  };
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify(body),
    signal: options.signal,
  });
}

const initialize = () =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    }),
  });

/** JSON read off the wire: any key, looked at by the assertions. */
interface Wire {
  [key: string]: Wire;
}

/** A JSON-RPC message as the assertions read it (which of its members it has is what they check). */
interface Message {
  result: Wire;
  error: Wire;
  method: Wire;
  params: Wire;
}

/** The JSON-RPC message of a response: its JSON body, or the first `data:` of its SSE stream. */
async function message(response: Response): Promise<Message> {
  if (!response.headers.get('content-type')?.includes('text/event-stream')) return response.json();
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const data = text.split('\n').find((line) => line.startsWith('data: '));
    if (data && text.includes('\n\n')) {
      await reader.cancel();
      return JSON.parse(data.slice('data: '.length));
    }
  }
  throw new Error(`the SSE stream ended before a message: ${text}`);
}

async function post(handler: McpHttpHandler, ...args: Parameters<typeof modernRequest>) {
  const response = await handler.fetch(modernRequest(...args), args[2]?.request);
  return { status: response.status, ...(await message(response)) };
}

const strict = (factory: McpServerFactory, options: CreateMcpHandlerOptions = {}) =>
  createMcpHandler(factory, { legacy: 'reject', ...options });

describe('MCP SDK v2 contract: the 2026-07-28 handler toolctx builds on', () => {
  it('server/discover lists the capabilities the server was built with, the Tasks extension among them', async () => {
    const { factory } = fixture();
    const { status, result } = await post(strict(factory), 'server/discover');
    expect(status).toBe(200);
    expect(result.supportedVersions).toContain(MODERN);
    expect(result.capabilities).toMatchObject({ tools: {}, extensions: { [TASKS]: {} } });
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(result._meta?.['io.modelcontextprotocol/serverInfo']).toEqual({
      name: 'contract',
      version: '1.0.0',
    });
  });

  it("builds each modern request's server with era 'modern', and stamps resultType, ttlMs and cacheScope on tools/list", async () => {
    const { factory, seen } = fixture();
    const { result } = await post(strict(factory), 'tools/list');
    expect(seen.era).toBe('modern');
    expect(result).toMatchObject({
      tools: [{ name: 'greet' }],
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
    });
  });

  it('lifts the envelope: client capabilities in ctx.mcpReq.envelope, the progress token in ctx.mcpReq._meta, authInfo in ctx.http', async () => {
    const { factory, seen } = fixture();
    const authInfo = { token: 't', clientId: 'c', scopes: [], extra: { principal: 'ada' } };
    const { result } = await post(
      strict(factory),
      'tools/call',
      { name: 'greet', arguments: {} },
      { capabilities: { elicitation: {} }, meta: { progressToken: 7 }, request: { authInfo } },
    );
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello' }], resultType: 'complete' });
    expect(seen.capabilities).toEqual({ elicitation: {} });
    expect(seen.progressToken).toBe(7);
    expect(seen.authInfo).toEqual(authInfo);
  });

  it("passes a tools/call handler's flat CreateTaskResult through with resultType 'task' (adding content: [])", async () => {
    const { factory } = fixture();
    const { result } = await post(strict(factory), 'tools/call', { name: 'slow', arguments: {} });
    expect(result).toMatchObject({ resultType: 'task', taskId: 'task_1', status: 'working', ttlMs: 60_000 });
    // R3 in the note: the SDK adds an empty content array to a contentless result; a runner that
    // refuses it would need an upstream fix. This line says when the SDK stops adding it.
    expect(result.content).toEqual([]);
  });

  it('lets tasks/get and tasks/cancel registered with a params schema through the era gate', async () => {
    const { factory } = fixture();
    const handler = strict(factory);
    const got = await post(handler, 'tasks/get', { taskId: 'task_1' });
    expect(got.result).toMatchObject({ taskId: 'task_1', status: 'working', resultType: 'complete' });
    const unknown = await post(handler, 'tasks/get', { taskId: 'task_2' });
    expect(unknown.error).toMatchObject({ code: -32602, message: 'Unknown task' });
    const cancelled = await post(handler, 'tasks/cancel', { taskId: 'task_1' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.result).toMatchObject({ resultType: 'complete' });
  });

  it('answers 400 -32020 when Mcp-Name disagrees with the body, tools/call and tasks/get alike, or is missing', async () => {
    const { factory } = fixture();
    const handler = strict(factory);
    const call = await post(handler, 'tools/call', { name: 'greet', arguments: {} }, { name: 'other' });
    expect(call.status).toBe(400);
    expect(call.error.code).toBe(-32020);
    const task = await post(handler, 'tasks/get', { taskId: 'task_1' }, { name: 'task_2' });
    expect(task.status).toBe(400);
    expect(task.error.code).toBe(-32020);
    const missing = await post(handler, 'tasks/get', { taskId: 'task_1' }, { name: null });
    expect(missing.status).toBe(400);
    expect(missing.error.code).toBe(-32020);
  });

  it('answers an inputRequired result with its sealed state, and hands the retry the verified state and its inputResponses', async () => {
    const { factory, seen } = fixture();
    const handler = strict(factory);
    const first = await post(handler, 'tools/call', { name: 'ask', arguments: {} });
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create', params: { mode: 'form' } } },
    });
    expect(typeof first.result.requestState).toBe('string');
    const answers = { user_name: { action: 'accept', content: { name: 'Ada' } } };
    const retry = await post(handler, 'tools/call', {
      name: 'ask',
      arguments: {},
      inputResponses: answers,
      requestState: first.result.requestState,
    });
    expect(retry.result).toMatchObject({ content: [{ text: 'answered' }], resultType: 'complete' });
    expect(seen.state).toEqual({ step: 1 });
    expect(seen.inputResponses).toEqual(answers);
  });

  it("answers -32602 'Invalid or expired requestState' when the verify hook throws, and for a tampered state", async () => {
    const { factory } = fixture();
    const handler = strict(factory);
    const refused = await post(handler, 'tools/call', { name: 'ask', arguments: {}, requestState: 'refuse' });
    expect(refused.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    const first = await post(handler, 'tools/call', { name: 'ask', arguments: {} });
    const state = String(first.result.requestState);
    const tampered = `${state.slice(0, -3)}${state.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const retry = await post(handler, 'tools/call', { name: 'ask', arguments: {}, requestState: tampered });
    expect(retry.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
  });

  it("answers 400 -32021 for an input request the client's capabilities lack, and for a thrown MissingRequiredClientCapabilityError", async () => {
    const { factory } = fixture();
    const handler = strict(factory);
    const ask = await post(handler, 'tools/call', { name: 'ask', arguments: {} }, { capabilities: {} });
    expect(ask.status).toBe(400);
    expect(ask.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    const thrown = await post(handler, 'tools/call', { name: 'needs-tasks', arguments: {} });
    expect(thrown.status).toBe(400);
    expect(thrown.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });

  it('answers -32602 with data.uri for a thrown ResourceNotFoundError', async () => {
    const { factory } = fixture();
    const { error } = await post(
      strict(factory),
      'resources/read',
      { uri: 'toolctx://artifacts/none' },
      { name: 'toolctx://artifacts/none' },
    );
    expect(error).toMatchObject({ code: -32602, data: { uri: 'toolctx://artifacts/none' } });
  });

  it('answers the methods 2026-07-28 removed with -32601', async () => {
    const { factory } = fixture();
    const handler = strict(factory);
    for (const [method, params] of [
      ['ping', {}],
      ['logging/setLevel', { level: 'info' }],
      ['tasks/list', {}],
      ['tasks/result', { taskId: 'task_1' }],
    ] as const) {
      const { error } = await post(handler, method, params);
      expect(error, method).toMatchObject({ code: -32601 });
    }
  });

  it('aborts ctx.mcpReq.signal when the request that carries the call is aborted (a closed 2026 stream cancels)', async () => {
    const { factory, seen, started } = fixture();
    const handler = strict(factory);
    const hangUp = new AbortController();
    const running = started();
    const pending = handler.fetch(
      modernRequest('tools/call', { name: 'hang', arguments: {} }, { signal: hangUp.signal }),
    );
    await running;
    hangUp.abort();
    await expect(seen.aborted).resolves.toBeDefined();
    await pending.then((response) => response.body?.cancel()).catch(() => {});
  });

  it("acknowledges a subscriptions/listen without the filter's taskIds (tasks are ours to stream)", async () => {
    const { factory } = fixture();
    const handler = strict(factory);
    const hangUp = new AbortController();
    const response = await handler.fetch(
      modernRequest(
        'subscriptions/listen',
        { notifications: { toolsListChanged: true, taskIds: ['task_1'] } },
        { capabilities: { extensions: { [TASKS]: {} } }, signal: hangUp.signal },
      ),
    );
    const ack = await message(response);
    hangUp.abort();
    await handler.close();
    expect(ack.method).toBe('notifications/subscriptions/acknowledged');
    expect(ack.params.notifications).toEqual({ toolsListChanged: true });
  });
});

describe('MCP SDK v2 contract: telling the 2025 era apart, and serving it ourselves', () => {
  it('isLegacyRequest is true for a 2025 initialize and false for a 2026-07-28 request', async () => {
    expect(await isLegacyRequest(initialize())).toBe(true);
    expect(await isLegacyRequest(modernRequest('tools/list'))).toBe(false);
  });

  it("a legacy: 'reject' handler answers a 2025 initialize 400 -32022 naming the revisions it supports", async () => {
    const { factory } = fixture();
    const response = await strict(factory).fetch(initialize());
    expect(response.status).toBe(400);
    const { error } = await message(response);
    expect(error).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: LEGACY } });
  });

  it('a server on WebStandardStreamableHTTPServerTransport with a session id generator serves a 2025 session', async () => {
    const { factory, seen } = fixture();
    const server = await factory({ era: 'legacy' });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'session-1' });
    await server.connect(transport);
    const response = await transport.handleRequest(initialize());
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBe('session-1');
    const { result } = await message(response);
    expect(result).toMatchObject({ protocolVersion: LEGACY, serverInfo: { name: 'contract' } });
    expect(seen.era).toBe('legacy');
    await server.close();
  });
});

describe('MCP SDK v2 contract: the client side mcpTools uses', () => {
  it("names a timed-out request's SdkError code 'REQUEST_TIMEOUT' (mcpTools reads it so, not importing the client)", () => {
    expect(ClientSdkErrorCode.RequestTimeout).toBe('REQUEST_TIMEOUT');
  });

  it('gives the v2 Client what mcpTools asks of one (listTools, and request with a result schema)', () => {
    expectTypeOf<Client>().toMatchTypeOf<McpToolsClient>();
  });
});

describe('MCP SDK v2 contract: the signatures toolctx calls', () => {
  it('keeps the handler, factory, codec and context types toolctx is written against', () => {
    expectTypeOf(createMcpHandler).toEqualTypeOf<
      (factory: McpServerFactory, options?: CreateMcpHandlerOptions) => McpHttpHandler
    >();
    expectTypeOf<McpHttpHandler['fetch']>().toEqualTypeOf<
      (request: Request, options?: McpHandlerRequestOptions) => Promise<Response>
    >();
    expectTypeOf<McpServerFactory>().toEqualTypeOf<
      (ctx: McpRequestContext) => McpServer | Server | Promise<McpServer | Server>
    >();
    expectTypeOf<McpRequestContext['era']>().toEqualTypeOf<'legacy' | 'modern'>();
    expectTypeOf(isLegacyRequest).parameter(0).toEqualTypeOf<Request>();
    expectTypeOf(isLegacyRequest).parameter(1).toEqualTypeOf<unknown>();
    expectTypeOf(isLegacyRequest).returns.toEqualTypeOf<Promise<boolean>>();
    expectTypeOf<RequestStateCodecOptions['key']>().toEqualTypeOf<Uint8Array | string>();
    expectTypeOf<RequestStateCodecOptions['ttlSeconds']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RequestStateCodecOptions['bind']>().toEqualTypeOf<
      ((ctx: ServerContext) => string) | undefined
    >();
    expectTypeOf<RequestStateCodec<{ a: 1 }>['mint']>().toEqualTypeOf<
      (payload: { a: 1 }, ctx?: ServerContext) => Promise<string>
    >();
    expectTypeOf<RequestStateCodec<{ a: 1 }>['verify']>().toEqualTypeOf<
      (state: string, ctx: ServerContext) => Promise<{ a: 1 }>
    >();
    type Req = ServerContext['mcpReq'];
    expectTypeOf<Req['signal']>().toEqualTypeOf<AbortSignal>();
    expectTypeOf<Req['notify']>().parameters.toMatchTypeOf<[{ method: string; params?: object }]>();
    expectTypeOf<Req['notify']>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf<Req['inputResponses']>().toEqualTypeOf<Record<string, unknown> | undefined>();
    expectTypeOf<Req['requestState']>().returns.toEqualTypeOf<unknown>();
    expectTypeOf<Req['elicitInput']>().returns.toMatchTypeOf<
      Promise<{ action: 'accept' | 'decline' | 'cancel' }>
    >();
    expectTypeOf<Req['id']>().toEqualTypeOf<string | number>();
    expectTypeOf<NonNullable<ServerContext['http']>['req']>().toEqualTypeOf<Request | undefined>();
    expectTypeOf<McpServer['server']>().toEqualTypeOf<Server>();
    // The envelope's keys are untyped in 2.4.0; when a release types them, read them typed.
    // biome-ignore lint/complexity/noBannedTypes: the type 2.4.0 publishes, pinned as published
    expectTypeOf<RequestMetaEnvelope>().toEqualTypeOf<{}>();
  });
});
