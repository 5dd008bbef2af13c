import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

// A corpus of hostile MCP traffic, raw JSON-RPC over streamable HTTP, against the test Worker in
// workerd. Each answer must be a 4xx at the HTTP layer with a JSON-RPC error body, a JSON-RPC
// error, or an `isError` result carrying an ErrorInfo: never a 5xx, a stack trace or a file path.

const url = 'http://toolctx.test/mcp';
const accept = 'application/json, text/event-stream';
const base = { accept, 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' };

async function openSession(at = url, headers: Record<string, string> = {}): Promise<string> {
  const init = await SELF.fetch(at, {
    method: 'POST',
    headers: { ...base, ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'corpus', version: '1' },
      },
    }),
  });
  const session = init.headers.get('mcp-session-id');
  await init.text();
  if (!session) throw new Error(`initialize failed: ${init.status}`);
  const ack = await SELF.fetch(at, {
    method: 'POST',
    headers: { ...base, ...headers, 'mcp-session-id': session },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await ack.text();
  return session;
}

/** The JSON-RPC messages of a response, whether it came as JSON or as server-sent events. */
function messagesOf(text: string, type: string | null): unknown[] {
  if (type?.startsWith('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)));
  }
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [parsed];
}

interface Case {
  name: string;
  body?: string;
  headers?: Record<string, string>;
  method?: string;
  /** Send without the session id; or with this one instead. */
  session?: 'none' | string;
}

const rpc = (method: string, params?: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const callTool = (name: unknown, args?: unknown) =>
  rpc('tools/call', { name, ...(args === undefined ? {} : { arguments: args }) });
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
  it('has at least 40 cases (with the HTTP corpus, well over 50)', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
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

// Another identity's traffic to a session. Each attack must get the very 404 an unknown session
// gets (status, headers and body, byte for byte) and leave the owner's session as it was.

const authUrl = 'http://toolctx.test/mcp-auth';

/** A caller: the route it uses and the headers that authenticate it there. */
interface Caller {
  at: string;
  headers: Record<string, string>;
}
const anonymous: Caller = { at: url, headers: {} };
const as = (token: string, conversation?: string): Caller => ({
  at: authUrl,
  headers: { authorization: `Bearer ${token}`, ...(conversation ? { 'x-conversation': conversation } : {}) },
});

/** Someone's open session, and requests in it. */
interface Opened {
  caller: Caller;
  session: string;
  send(init: { method?: string; body?: string; headers?: Record<string, string> }): Promise<Response>;
}

async function open(caller: Caller): Promise<Opened> {
  const session = await openSession(caller.at, caller.headers);
  return {
    caller,
    session,
    send: ({ method = 'POST', body, headers }) =>
      SELF.fetch(caller.at, {
        method,
        headers: { ...base, ...caller.headers, ...headers, 'mcp-session-id': session },
        body,
      }),
  };
}

/** `caller`'s request naming `session`, as an attacker sends it. */
const intrude = (caller: Caller, session: string, init: { method?: string; body?: string }) =>
  SELF.fetch(caller.at, {
    method: init.method ?? 'POST',
    headers: { ...base, ...caller.headers, 'mcp-session-id': session },
    body: init.body,
  });

/** Everything a client can see of a response. */
async function observe(response: Response) {
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}

/** What an unknown session id gets, for a request of this method. */
async function unknownSession(method = 'POST') {
  // env is typed for the example Worker (src/test-env.d.ts); this pool runs the MCP test Worker.
  const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
  const neverOpened = sessions.newUniqueId().toString();
  return observe(
    await intrude(as('ana'), neverOpened, {
      method,
      body: method === 'POST' ? rpc('tools/list') : undefined,
    }),
  );
}

/** The JSON-RPC messages of an SSE response, one at a time, as they arrive. */
async function* sse(response: Response): AsyncGenerator<Record<string, unknown>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  while (true) {
    const { done, value } = await reader.read();
    if (done) return;
    buffered += value;
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const data = buffered
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5))
        .join('');
      buffered = buffered.slice(end + 2);
      if (data.trim()) yield JSON.parse(data);
      end = buffered.indexOf('\n\n');
    }
  }
}

async function stateOf(owner: Opened, id: string): Promise<{ started: boolean; aborted: boolean }> {
  const response = await owner.send({ body: callTool('call_state', { id }), headers: {} });
  const [message] = messagesOf(await response.text(), response.headers.get('content-type'));
  return (message as { result: { structuredContent: { started: boolean; aborted: boolean } } }).result
    .structuredContent;
}

const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await check()).toBe(true);
};

interface Attack {
  name: string;
  /** Runs the attack by `attacker` on `owner`'s session; answers the attacker's response, observed. */
  run(
    owner: Opened,
    attacker: Caller,
  ): Promise<{ status: number; headers: [string, string][]; body: string }>;
  method?: string;
}

const attacks: Attack[] = [
  {
    name: 'tools/call in the session',
    async run(owner, attacker) {
      const id = `intruder-${crypto.randomUUID()}`;
      const seen = await observe(
        await intrude(attacker, owner.session, { body: callTool('wait_for_abort', { id }) }),
      );
      expect(await stateOf(owner, id)).toEqual({ started: false, aborted: false });
      return seen;
    },
  },
  {
    name: "notifications/cancelled for the owner's running call",
    async run(owner, attacker) {
      const id = `victim-${crypto.randomUUID()}`;
      const call = await owner.send({
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'wait_for_abort', arguments: { id }, _meta: { progressToken: id } },
        }),
      });
      const stream = sse(call);
      expect((await stream.next()).value).toMatchObject({ method: 'notifications/progress' });
      const cancel = JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id },
      });
      const seen = await observe(await intrude(attacker, owner.session, { body: cancel }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await stateOf(owner, id)).toEqual({ started: true, aborted: false });
      // The owner's own cancel still reaches the call: the check above could have failed.
      expect((await owner.send({ body: cancel })).status).toBe(202);
      await waitFor(async () => (await stateOf(owner, id)).aborted);
      await call.body?.cancel().catch(() => {});
      return seen;
    },
  },
  {
    name: 'DELETE of the session',
    method: 'DELETE',
    async run(owner, attacker) {
      const seen = await observe(await intrude(attacker, owner.session, { method: 'DELETE' }));
      const after = await owner.send({ body: callTool('add', { a: 1, b: 2 }) });
      expect(messagesOf(await after.text(), after.headers.get('content-type'))).toMatchObject([
        { result: { structuredContent: { sum: 3 } } },
      ]);
      return seen;
    },
  },
  {
    name: "the session's GET stream",
    method: 'GET',
    async run(owner, attacker) {
      const seen = await observe(await intrude(attacker, owner.session, { method: 'GET' }));
      const mine = await owner.send({ method: 'GET' });
      expect(mine.status).toBe(200);
      expect(mine.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await mine.body?.cancel();
      return seen;
    },
  },
  {
    name: "the owner's in-flight request id",
    async run(owner, attacker) {
      const id = `shared-${crypto.randomUUID()}`;
      const call = await owner.send({
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'steps', arguments: { count: 4, ms: 40 }, _meta: { progressToken: id } },
        }),
      });
      const stream = sse(call);
      const first = (await stream.next()).value;
      const seen = await observe(
        await intrude(attacker, owner.session, {
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'add', arguments: { a: 1, b: 1 } },
          }),
        }),
      );
      const rest: Record<string, unknown>[] = [];
      for await (const message of stream) rest.push(message);
      expect([first, ...rest]).toMatchObject([
        ...[1, 2, 3, 4].map((progress) => ({
          method: 'notifications/progress',
          params: { progress, total: 4 },
        })),
        { id, result: { content: [{ type: 'text', text: '4 steps done' }] } },
      ]);
      return seen;
    },
  },
];

const pairs: [string, Caller, Caller][] = [
  ['another principal', as('ana'), as('bob')],
  ['another tenant', as('ana'), as('ana@globex')],
  ['another conversation', as('ana', 'c1'), as('ana', 'c2')],
  ['a conversation where the owner had none', as('ana'), as('ana', 'c1')],
  ['an identity, on an anonymous session', anonymous, as('ana')],
  ['anonymous, on an identified session', as('ana'), anonymous],
];

describe("MCP door: another identity's requests to a session", () => {
  it('answers the same 404 to a malformed session id and to one that names no session', async () => {
    const malformed = await observe(await intrude(as('ana'), 'f'.repeat(64), { body: rpc('tools/list') }));
    const unknown = await unknownSession();
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 }, id: null });
    expect(malformed).toEqual(unknown);
  });

  it.each(
    pairs.flatMap(([who, owner, attacker]) =>
      attacks.map((attack) => [attack.name, who, owner, attacker, attack] as const),
    ),
  )(
    '%s, by %s → the unknown-session 404, and the session is untouched',
    async (_name, _who, ownerCaller, attacker, attack) => {
      const owner = await open(ownerCaller);
      const seen = await attack.run(owner, attacker);
      expect(seen).toEqual(await unknownSession(attack.method));
    },
  );

  it("refuses a second request with an id still in flight in the owner's own session; the first keeps its stream", async () => {
    const owner = await open(as('ana'));
    const slow = (id: unknown) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'steps', arguments: { count: 3, ms: 40 }, _meta: { progressToken: 'p' } },
      });
    const call = await owner.send({ body: slow('same') });
    const stream = sse(call);
    const first = (await stream.next()).value;
    const again = await owner.send({
      body: callTool('add', { a: 1, b: 1 }).replace('"id":1', '"id":"same"'),
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringMatching(/"same".*new id/) },
    });
    const rest: Record<string, unknown>[] = [];
    for await (const message of stream) rest.push(message);
    expect([first, ...rest].at(-1)).toMatchObject({
      id: 'same',
      result: { content: [{ text: '3 steps done' }] },
    });
    // Once answered, the id is free again; and one batch cannot carry the same id twice.
    const reused = await owner.send({
      body: callTool('add', { a: 2, b: 2 }).replace('"id":1', '"id":"same"'),
    });
    expect(messagesOf(await reused.text(), reused.headers.get('content-type'))).toMatchObject([
      { id: 'same', result: { structuredContent: { sum: 4 } } },
    ]);
    const twice = await owner.send({
      body: `[${callTool('add', { a: 1, b: 1 })},${callTool('add', { a: 3, b: 3 })}]`,
    });
    expect(twice.status).toBe(409);
  });
});

// Requests without a session id that are not an initialize: refused in the Worker, as the SDK's
// transport would, before any session object exists. The Worker counts the session stubs it gets
// per `x-test-tag` (src/mcp/test-worker.ts), and a count of 0 proves none was created.

const withoutSession: (Case & { status: number; message?: RegExp })[] = [
  { name: 'tools/list', body: rpc('tools/list'), status: 400, message: /initialize/ },
  { name: 'tools/call', body: callTool('add', { a: 1, b: 2 }), status: 400, message: /initialize/ },
  { name: 'a notification', body: '{"jsonrpc":"2.0","method":"notifications/initialized"}', status: 400 },
  {
    name: 'a batch without initialize',
    body: `[${rpc('tools/list')},${rpc('ping', undefined, 2)}]`,
    status: 400,
  },
  {
    name: 'a batch of initialize and more',
    body: `[${rpc('initialize', {})},${rpc('tools/list', undefined, 2)}]`,
    status: 400,
  },
  { name: 'initialize as a string', body: '"initialize"', status: 400 },
  { name: 'null', body: 'null', status: 400 },
  { name: 'malformed JSON', body: '{"method":"initialize"', status: 400 },
  { name: 'a body over 1 MiB', body: rpc('initialize', { pad: 'x'.repeat(1024 * 1024) }), status: 413 },
  { name: 'a GET', method: 'GET', status: 400 },
  { name: 'a DELETE', method: 'DELETE', status: 400 },
  { name: 'a PUT', method: 'PUT', body: rpc('tools/list'), status: 405 },
];

describe('MCP door: requests without a session id that are not initialize', () => {
  const stubs = async (tag: string) =>
    (
      (await (await SELF.fetch(`http://toolctx.test/test/session-stubs?tag=${tag}`)).json()) as {
        stubs: number;
      }
    ).stubs;

  it.each(withoutSession.map((c) => [c.name, c] as const))(
    '%s → refused, and no session object is created',
    async (_name, c) => {
      const tag = crypto.randomUUID();
      for (const at of [url, authUrl]) {
        const response = await SELF.fetch(at, {
          method: c.method ?? 'POST',
          headers: { ...base, authorization: 'Bearer ana', 'x-test-tag': tag },
          body: c.body,
        });
        expect(response.status).toBe(c.status);
        expect(response.headers.get('mcp-session-id')).toBeNull();
        const body = (await response.json()) as { error: { message: string } };
        expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) }, id: null });
        if (c.message) expect(body.error.message).toMatch(c.message);
      }
      expect(await stubs(tag)).toBe(0);
    },
  );

  it('counts the session object an initialize does create (the check above can fail)', async () => {
    const tag = crypto.randomUUID();
    await openSession(url, { 'x-test-tag': tag });
    expect(await stubs(tag)).toBe(2); // the initialize, then notifications/initialized
  });
});
