// The Vercel AI SDK's MCP client (`createMCPClient` from @ai-sdk/mcp) against the conformance
// Worker's /mcp under `wrangler dev`, in both of its lines: 1.x beside ai@6 speaks 2025-11-25
// (initialize, a session), 2.x beside ai@7 speaks 2026-07-28 (server/discover, then one stateless
// POST per request), or 2025-11-25 when its host turns discovery off. Its HTTP transport lists
// the tools as AI SDK tools, their `execute` calls them as generateText would, and a mock model's
// loop sees a tool's result. It declares no Tasks extension, so a slow tool answers on the call,
// never as a task. Every HTTP exchange goes through the transport's `fetch` option, recorded, to
// show what was negotiated on the wire.
import { fileURLToPath } from 'node:url';
import { createMCPClient as createMCPClientV1 } from '@ai-sdk/mcp';
import { createMCPClient as createMCPClientV2 } from '@ai-sdk/mcp-v2';
import { parseSse, type SseEvent } from '@toolctx/core/sse';
import { generateText as generateText6, stepCountIs as stepCountIs6 } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { generateText as generateText7, stepCountIs as stepCountIs7 } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    config: 'conformance/worker/wrangler.jsonc',
  });
}, 180_000);
afterAll(() => dev?.stop());

/** One HTTP exchange of the client's transport, and the JSON-RPC messages that came back on it. */
interface Exchange {
  httpMethod: string;
  rpcMethod?: string;
  sent?: { method?: string; params?: Record<string, unknown> };
  protocolHeader: string | null;
  sessionHeader: string | null;
  status: number;
  /** The SSE events as sent, priming events (an id, empty data) among them. */
  events: SseEvent[];
  received: { id?: unknown; method?: string; result?: Record<string, unknown>; error?: unknown }[];
}

/**
 * A fetch that records every exchange. The body the client reads passes through a tap that
 * parses what has arrived so far, so a stream that never ends (the GET one) is seen as it goes.
 */
const recordingFetch =
  (exchanges: Exchange[]): typeof fetch =>
  async (input, init) => {
    const headers = new Headers(init?.headers);
    const sent = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const response = await fetch(input, init);
    const exchange: Exchange = {
      httpMethod: init?.method ?? 'GET',
      rpcMethod: sent?.method,
      sent,
      protocolHeader: headers.get('mcp-protocol-version'),
      sessionHeader: headers.get('mcp-session-id'),
      status: response.status,
      events: [],
      received: [],
    };
    exchanges.push(exchange);
    if (!response.body) return response;
    const sse = response.headers.get('content-type')?.startsWith('text/event-stream');
    const decoder = new TextDecoder();
    let text = '';
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        text += decoder.decode(chunk, { stream: true });
        if (!sse) return;
        exchange.events = parseSse(text);
        exchange.received = exchange.events
          .filter((event) => event.data !== '')
          .map((event) => JSON.parse(event.data));
      },
      flush() {
        if (!sse && text.trim().startsWith('{')) exchange.received = [JSON.parse(text)];
      },
    });
    return new Response(response.body.pipeThrough(tap), response);
  };

/** What these tests use of an AI SDK tool, the same in both lines. */
interface AiSdkTool {
  description?: string;
  inputSchema: { jsonSchema: unknown };
  execute?: (input: never, options: { toolCallId: string; messages: [] }) => unknown;
}
/** What these tests use of the AI SDK's MCP client, the same in both lines. */
interface AiSdkMcpClient {
  serverInfo: { name: string };
  tools(options?: {
    schemas?: Record<string, { inputSchema: z.ZodType }>;
  }): Promise<Record<string, AiSdkTool>>;
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown }[] }>;
  close(): Promise<void>;
}
interface ClientConfig {
  transport: { type: 'http'; url: string; fetch: typeof fetch };
  clientName: string;
  onUncaughtError: (error: unknown) => void;
}
/** One model turn of the mock model, from the tool results the prompt holds so far. */
type Turn = (toolResults: unknown[]) => {
  content: (
    | { type: 'tool-call'; toolCallId: string; toolName: string; input: string }
    | { type: 'text'; text: string }
  )[];
  finishReason: { unified: 'tool-calls' | 'stop'; raw: undefined };
};
interface LoopResult {
  text: string;
  steps: { toolResults: { toolName: string; input: unknown; output: unknown; dynamic?: boolean }[] }[];
}

/** A release line of @ai-sdk/mcp, with the `ai` it pairs with. */
interface Line {
  name: string;
  protocolVersion: string;
  connect(config: ClientConfig): Promise<AiSdkMcpClient>;
  /** generateText with a mock model whose turns `turn` gives, and these tools, three steps at most. */
  loop(tools: Record<string, AiSdkTool>, turn: Turn): Promise<LoopResult>;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
type Prompt = { role: string; content: unknown }[];
const toolResultsOf = (prompt: Prompt) =>
  prompt.flatMap((message) =>
    message.role === 'tool'
      ? (message.content as { type: string; output: unknown }[])
          .filter((part) => part.type === 'tool-result')
          .map((part) => part.output)
      : [],
  );

/** generateText of ai@6 with its mock model (LanguageModelV3). */
const loop6: Line['loop'] = async (tools, turn) => {
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => ({ ...turn(toolResultsOf(prompt)), usage, warnings: [] }),
  });
  const aiTools = tools as unknown as Parameters<typeof generateText6>[0]['tools'];
  return (await generateText6({
    model,
    tools: aiTools,
    stopWhen: stepCountIs6(3),
    prompt: 'Greet Ada.',
  })) as unknown as LoopResult;
};

/** generateText of ai@7 with its mock model (LanguageModelV4). */
const loop7: Line['loop'] = async (tools, turn) => {
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => ({ ...turn(toolResultsOf(prompt)), usage, warnings: [] }),
  });
  const aiTools = tools as unknown as Parameters<typeof generateText7>[0]['tools'];
  return (await generateText7({
    model,
    tools: aiTools,
    stopWhen: stepCountIs7(3),
    prompt: 'Greet Ada.',
  })) as unknown as LoopResult;
};

const lines: Line[] = [
  {
    name: '@ai-sdk/mcp 1.x with ai@6',
    protocolVersion: '2025-11-25',
    connect: (config) => createMCPClientV1(config) as unknown as Promise<AiSdkMcpClient>,
    loop: loop6,
  },
  {
    name: '@ai-sdk/mcp 2.x with ai@7',
    protocolVersion: '2026-07-28',
    connect: (config) => createMCPClientV2(config) as unknown as Promise<AiSdkMcpClient>,
    loop: loop7,
  },
  {
    // 2.x as a host that knows its server is a legacy one configures it: initialize, a session.
    name: '@ai-sdk/mcp 2.x with ai@7, protocolVersionDiscovery off',
    protocolVersion: '2025-11-25',
    connect: (config) =>
      createMCPClientV2({ ...config, protocolVersionDiscovery: false }) as unknown as Promise<AiSdkMcpClient>,
    loop: loop7,
  },
];

/** The text of a CallToolResult's content, as the AI SDK tool's `execute` returns it. */
const texts = (result: unknown) =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? []).map((part) => part.text);

/** As generateText calls a tool's execute. */
const callOptions = (toolCallId: string) => ({ toolCallId, messages: [] as [] });

describe.each(lines)("the AI SDK's MCP client ($name) against the Worker's /mcp", (line) => {
  const open: AiSdkMcpClient[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  async function connect() {
    const exchanges: Exchange[] = [];
    const errors: unknown[] = [];
    const client = await line.connect({
      transport: { type: 'http', url: `${dev.url}/mcp`, fetch: recordingFetch(exchanges) },
      clientName: 'toolctx-ai-sdk-test',
      onUncaughtError: (error) => errors.push(error),
    });
    open.push(client);
    return { client, exchanges, errors };
  }

  it(`negotiates ${line.protocolVersion} and keeps to it on every later request`, async () => {
    const { client, exchanges } = await connect();
    await client.listTools();
    const posts = exchanges.filter((exchange) => exchange.httpMethod === 'POST');
    const [opening, ...later] = posts;
    if (line.protocolVersion === '2025-11-25') {
      expect(opening?.rpcMethod).toBe('initialize');
      expect(opening?.sent?.params?.protocolVersion).toBe('2025-11-25');
      expect(opening?.received[0]?.result?.protocolVersion).toBe('2025-11-25');
      expect(later.map((exchange) => exchange.rpcMethod)).toEqual([
        'notifications/initialized',
        'tools/list',
      ]);
      const session = later[0]?.sessionHeader;
      expect(session).toBeTruthy();
      for (const exchange of later) expect(exchange.sessionHeader).toBe(session);
    } else {
      expect(opening?.rpcMethod).toBe('server/discover');
      expect(opening?.received[0]?.result?.supportedVersions).toContain('2026-07-28');
      expect(later.map((exchange) => exchange.rpcMethod)).toEqual(['tools/list']);
      for (const exchange of posts) expect(exchange.sessionHeader).toBeNull();
    }
    for (const exchange of posts) {
      expect(exchange.protocolHeader).toBe(line.protocolVersion);
      expect(exchange.status).toBeLessThan(300);
    }
    expect(client.serverInfo.name).toBe('toolctx');
  });

  it('lists the tools as AI SDK tools with their input schemas', async () => {
    const { client } = await connect();
    const tools = await client.tools();
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['test_simple_text', 'greet', 'slow_compute']));
    expect(tools.greet!.description).toBe('Greets a name at once: never a task.');
    // The AI SDK closes an MCP schema (additionalProperties false) before the model sees it.
    expect(await tools.greet!.inputSchema.jsonSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    });
    expect(await tools.slow_compute!.inputSchema.jsonSchema).toMatchObject({
      type: 'object',
      properties: { seconds: { type: 'number', minimum: 0, maximum: 600 }, label: { type: 'string' } },
      required: ['seconds'],
    });
    const { tools: listed } = await client.listTools();
    expect(listed.find((tool) => tool.name === 'greet')?.inputSchema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
  });

  it("calls a tool through the AI SDK tool's execute, as generateText would", async () => {
    const { client } = await connect();
    const tools = await client.tools();
    const greet = tools.greet!.execute! as (input: { name: string }, options: unknown) => Promise<unknown>;
    const greeted = await greet({ name: 'Ada' }, callOptions('call_greet'));
    expect(greeted).toMatchObject({ isError: false });
    expect(texts(greeted)).toEqual(['Hello, Ada!']);
    const simple = await tools.test_simple_text!.execute!({} as never, callOptions('call_simple'));
    expect(texts(simple)).toEqual(['This is a simple text response for testing.']);
  });

  it('with typed schemas, offers only the tools named and calls them', async () => {
    const { client } = await connect();
    const tools = await client.tools({ schemas: { greet: { inputSchema: z.object({ name: z.string() }) } } });
    expect(Object.keys(tools)).toEqual(['greet']);
    const greet = tools.greet!.execute! as (input: { name: string }, options: unknown) => Promise<unknown>;
    expect(texts(await greet({ name: 'Grace' }, callOptions('call_typed')))).toEqual(['Hello, Grace!']);
  });

  it('gets a slow tool’s result on the call, never a task: the client declared no Tasks extension', async () => {
    const { client, exchanges } = await connect();
    const tools = await client.tools();
    const slow = tools.slow_compute!.execute! as (
      input: { seconds: number },
      options: unknown,
    ) => Promise<unknown>;
    const started = Date.now();
    const result = await slow({ seconds: 1 }, callOptions('call_slow'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(texts(result)).toEqual(['Computed result after 1s']);
    expect(JSON.stringify(result)).not.toMatch(/taskId|"task"/);
    const call = exchanges.find((exchange) => exchange.rpcMethod === 'tools/call')!;
    expect(call.sent?.params).not.toHaveProperty('task');
    expect(call.received.find((message) => 'result' in message)?.result).toMatchObject({
      content: [{ type: 'text', text: 'Computed result after 1s' }],
    });
    expect(JSON.stringify(call.received)).not.toMatch(/taskId|notifications\/tasks|"resultType":"task"/);
  });

  it('gets the result of a tool that reports progress: no progress token asked, none sent', async () => {
    const { client, exchanges } = await connect();
    const tools = await client.tools();
    const result = await tools.test_tool_with_progress!.execute!({} as never, callOptions('call_progress'));
    expect(result).toMatchObject({ isError: false });
    expect(texts(result)).toEqual(['Progress reported: 0, 50 and 100 of 100.']);
    const call = exchanges.find((exchange) => exchange.rpcMethod === 'tools/call')!;
    expect(
      (call.sent?.params?._meta as { progressToken?: unknown } | undefined)?.progressToken,
    ).toBeUndefined();
    expect(call.received.filter((message) => message.method === 'notifications/progress')).toEqual([]);
  });

  it('returns a failing tool’s error result for the model instead of throwing', async () => {
    const { client } = await connect();
    const tools = await client.tools();
    const result = await tools.test_error_handling!.execute!({} as never, callOptions('call_error'));
    expect(result).toMatchObject({ isError: true });
    // toolctx does not pass an unexpected exception's message on.
    expect(texts(result)).toEqual(['The tool failed with Error.']);
  });

  it('drives a generateText loop: a mock model calls greet and sees its result in the second step', async () => {
    const { client } = await connect();
    const tools = await client.tools();
    const shown: unknown[] = [];
    const result = await line.loop(tools, (toolResults) => {
      shown.push(...toolResults);
      return toolResults.length === 0
        ? {
            content: [
              { type: 'tool-call', toolCallId: 'tc_greet', toolName: 'greet', input: '{"name":"Ada"}' },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
          }
        : {
            content: [{ type: 'text', text: 'Greeted.' }],
            finishReason: { unified: 'stop', raw: undefined },
          };
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolResults[0]).toMatchObject({
      toolName: 'greet',
      input: { name: 'Ada' },
      dynamic: true,
    });
    expect(texts(result.steps[0]!.toolResults[0]!.output)).toEqual(['Hello, Ada!']);
    // The AI SDK's mcpToModelOutput shows the model the MCP content.
    expect(shown).toEqual([{ type: 'content', value: [{ type: 'text', text: 'Hello, Ada!' }] }]);
    expect(result.text).toBe('Greeted.');
  });

  // What the 1.x line (and 2.x pinned to 2025-11-25) reports through onUncaughtError, both the
  // client's own doing and harmless: it opens its GET stream before `initialize`, so with no
  // session yet the door answers 400 (as the spec says a server that requires a session SHOULD;
  // it opens the stream again after initializing, and that one stands), and it parses the empty
  // data of each POST stream's priming event (an id, no message: 2025-11-25, SEP-1699) as JSON.
  it('reports no transport errors but the early GET and the priming events it cannot parse', async () => {
    const { client, exchanges, errors } = await connect();
    const tools = await client.tools();
    await tools.greet!.execute!({ name: 'Ada' } as never, callOptions('call_errors'));
    const earlyGets = exchanges.filter(
      (exchange) => exchange.httpMethod === 'GET' && !exchange.sessionHeader,
    );
    for (const exchange of earlyGets) expect(exchange.status).toBe(400);
    const primes = exchanges
      .filter((exchange) => exchange.httpMethod === 'POST')
      .flatMap((exchange) => exchange.events.filter((event) => event.data === ''));
    if (line.protocolVersion === '2026-07-28') expect([earlyGets.length, primes.length]).toEqual([0, 0]);
    else expect(primes.length).toBe(3); // initialize, tools/list, tools/call
    const expected = [
      ...earlyGets.map(() => 'MCP HTTP Transport Error: GET SSE failed: 400 Bad Request'),
      ...primes.map(() => 'MCP HTTP Transport Error: Failed to parse message'),
    ];
    expect(errors.map((error) => (error as Error).message).sort()).toEqual(expected.sort());
    for (const error of errors.filter((error) => /parse/.test((error as Error).message)))
      expect((error as { cause?: { text?: string } }).cause?.text).toBe('');
  });
});
