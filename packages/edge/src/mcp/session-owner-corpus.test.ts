import { env, SELF } from 'cloudflare:test';
import { readSse } from '@toolctx/core/sse';
import { describe, expect, it } from 'vitest';
import { base, type Case, callTool, messagesOf, openSession, rpc, url } from '../test-utils/mcp.js';

// Hostile traffic about sessions, raw JSON-RPC over streamable HTTP against the MCP test Worker:
// another identity's traffic to a session. Each attack must get the very 404 an unknown session
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
  for await (const message of readSse(response.body!)) {
    if (message.data.trim()) yield JSON.parse(message.data);
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
    name: "a resume of the owner's stream with Last-Event-ID",
    method: 'GET',
    async run(owner, attacker) {
      const id = `resumed-${crypto.randomUUID()}`;
      const call = await owner.send({
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'steps', arguments: { count: 2, ms: 10 }, _meta: { progressToken: id } },
        }),
      });
      const events = [];
      for await (const event of readSse(call.body!)) events.push(event);
      const lastEventId = events[0]!.id!;
      const resume = (caller: Caller, session: string) =>
        SELF.fetch(caller.at, {
          headers: { ...base, ...caller.headers, 'mcp-session-id': session, 'last-event-id': lastEventId },
        });
      const seen = await observe(await resume(attacker, owner.session));
      // The owner's own resume gets the rest of the stream: the check above could have failed.
      const mine = messagesOf(await (await resume(owner.caller, owner.session)).text(), 'text/event-stream');
      expect(mine).toMatchObject([{ method: 'notifications/progress', params: { progress: 2 } }, { id }]);
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
