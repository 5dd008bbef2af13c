// The Worker's MCP streams under `wrangler dev`, by the test's clock: a dropped POST stream is let
// go while its call runs on (MCP 2025-11-25: a disconnect is not a cancel), a dropped GET stream
// frees its place, and a client that reconnects with Last-Event-ID gets what it missed, in order and once, even after wrangler dev (and the session object with it)
// restarted in between. Raw streamable HTTP on the test Worker's /mcp-streams
// (packages/edge/src/mcp/streams-test-session.ts), and the official SDK client resuming by itself.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { readSse, type SseEvent } from '@toolctx/core/sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget, waitUntil } from '../slowdown.js';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';

const protocolVersion = '2025-11-25';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/mcp/wrangler.test.jsonc' });
});
afterAll(() => dev?.stop());

function send(
  method: 'GET' | 'POST',
  sessionId: string | undefined,
  init: { body?: unknown; lastEventId?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${dev.url}/mcp-streams`, {
    method,
    signal: init.signal,
    headers: {
      accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': protocolVersion,
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
      ...(init.lastEventId ? { 'last-event-id': init.lastEventId } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

let nextId = 1;
const call = (name: string, args: Record<string, unknown>, id = nextId++) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, _meta: { progressToken: `progress-${id}` } },
});
/** Has the session send `count` log messages on its GET stream, `ms` apart. */
const broadcast = (count: number, ms: number) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method: 'prompts/get',
  params: { name: 'broadcast', arguments: { count: String(count), ms: String(ms) } },
});

async function openSession(): Promise<string> {
  const init = await send('POST', undefined, {
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'streams', version: '1' } },
    },
  });
  await init.text();
  const sessionId = init.headers.get('mcp-session-id');
  if (!sessionId) throw new Error(`initialize answered ${init.status}`);
  await (
    await send('POST', sessionId, { body: { jsonrpc: '2.0', method: 'notifications/initialized' } })
  ).text();
  return sessionId;
}

/** The SSE events of a response, one at a time. */
function events(response: Response) {
  if (!response.ok || !response.body) throw new Error(`the stream answered ${response.status}`);
  const iterator = readSse(response.body)[Symbol.asyncIterator]();
  return async (): Promise<SseEvent | undefined> => (await iterator.next()).value;
}

/** The JSON-RPC messages (with their event ids) of a stream, read to its end. */
async function messagesOf(response: Response) {
  const next = events(response);
  const messages: { id?: string; message: Record<string, unknown> }[] = [];
  for (let event = await next(); event; event = await next())
    if (event.data) messages.push({ id: event.id, message: JSON.parse(event.data) });
  return messages;
}

/** A tool call's structured result, from its SSE answer. */
async function result(response: Response): Promise<Record<string, unknown>> {
  const answer = (await messagesOf(response)).find(({ message }) => 'result' in message);
  if (!answer) throw new Error('the call gave no result');
  return (answer.message.result as { structuredContent: Record<string, unknown> }).structuredContent;
}

/** Reads log notifications from `next` until the one numbered `n`; answers the event id of each. */
async function readLogsUntil(next: () => Promise<SseEvent | undefined>, n: number) {
  const seen: { n: number; id: string }[] = [];
  while (seen.at(-1)?.n !== n) {
    const event = await next();
    if (!event) throw new Error('the stream ended');
    if (!event.data) continue;
    const message = JSON.parse(event.data) as { params?: { data?: { n?: number } } };
    if (message.params?.data?.n !== undefined) seen.push({ n: message.params.data.n, id: event.id! });
  }
  return seen;
}

describe('a dropped stream is noticed', () => {
  it('a client that drops a POST stream mid-call does not cancel it: the call goes on, and a GET with Last-Event-ID gets its result', async () => {
    const sessionId = await openSession();
    const client = new AbortController();
    const requestId = nextId++;
    const next = events(
      await send('POST', sessionId, {
        body: call('hold', { id: 'drop-post' }, requestId),
        signal: client.signal,
      }),
    );
    const priming = await next();
    expect(priming).toMatchObject({ data: '' });
    expect(priming!.id).toBeTruthy();
    expect(JSON.parse((await next())!.data)).toMatchObject({ method: 'notifications/progress' });
    client.abort();
    // The session finds a dropped stream at the first heartbeat that fails (before, that cancelled
    // the call, about 1.0 s after the drop): the call is still running well past that.
    const dropped = performance.now();
    while (performance.now() - dropped < budget(3000)) {
      expect(
        await result(await send('POST', sessionId, { body: call('held', { id: 'drop-post' }) })),
      ).toEqual({
        aborted: false,
        tornDown: false,
      });
      await sleep(200);
    }
    const resumed = await send('GET', sessionId, { lastEventId: priming!.id });
    expect(resumed.status).toBe(200);
    expect(
      await result(await send('POST', sessionId, { body: call('release', { id: 'drop-post' }) })),
    ).toEqual({
      released: true,
    });
    // The resumed stream reads what the call sent since the priming event, then its result.
    const live = await messagesOf(resumed);
    expect(live.map(({ message }) => message)).toEqual([
      expect.objectContaining({ method: 'notifications/progress' }),
      expect.objectContaining({
        id: requestId,
        result: expect.objectContaining({ structuredContent: { released: 'drop-post' } }),
      }),
    ]);
    expect(await result(await send('POST', sessionId, { body: call('held', { id: 'drop-post' }) }))).toEqual({
      aborted: false,
      tornDown: true,
    });
    // A client that comes back later still gets them, from the event store alone.
    const stored = await messagesOf(await send('GET', sessionId, { lastEventId: priming!.id }));
    expect(stored).toEqual(live);
  });

  it('a GET stream dropped and opened again is accepted within 5 s, not refused with 409', async () => {
    const sessionId = await openSession();
    const client = new AbortController();
    const first = await send('GET', sessionId, { signal: client.signal });
    expect(first.status).toBe(200);
    // While the first stream is open, a second is refused, as the protocol asks.
    const second = await send('GET', sessionId);
    expect(second.status).toBe(409);
    await second.text();
    client.abort();
    const dropped = performance.now();
    let status = 0;
    let refused = 0;
    while (performance.now() - dropped < 15_000) {
      const again = await send('GET', sessionId);
      status = again.status;
      await again.body?.cancel();
      if (status !== 409) break;
      refused++;
      await sleep(100);
    }
    const latencyMs = Math.round(performance.now() - dropped);
    console.log(
      `GET stream dropped: a new GET accepted ${latencyMs} ms later (${refused} refused with 409 before)`,
    );
    expect(status).toBe(200);
    expect(latencyMs).toBeLessThan(5000);
  });
});

describe('a client that reconnects with Last-Event-ID', () => {
  it('gets the events it missed in order, and none twice', async () => {
    const sessionId = await openSession();
    const client = new AbortController();
    const next = events(await send('GET', sessionId, { signal: client.signal }));
    const broadcasting = send('POST', sessionId, { body: broadcast(8, 150) });
    const seen = await readLogsUntil(next, 3);
    client.abort();
    // The session holds one GET stream: retry while the dropped one still holds it (the test above
    // holds that to 5 s).
    const resumed = events(
      await waitUntil(
        async () => {
          const again = await send('GET', sessionId, { lastEventId: seen.at(-1)!.id });
          if (again.status !== 409) return again;
          await again.body?.cancel();
        },
        { what: 'the dropped GET stream to be let go (a GET not refused with 409)', ms: 10_000 },
      ),
    );
    const rest = await readLogsUntil(resumed, 8);
    expect(rest.map(({ n }) => n)).toEqual([4, 5, 6, 7, 8]);
    const ids = [...seen, ...rest].map(({ id }) => Number(id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    await (await broadcasting).text();
  });

  it('the official SDK client, its GET stream cut mid-broadcast, resumes by itself and receives every notification once, in order', async () => {
    let cut: (() => void) | undefined;
    const resumedFrom: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp-streams`), {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method !== 'GET' || !response.body) return response;
        const lastEventId = new Headers(init.headers).get('last-event-id');
        if (lastEventId) resumedFrom.push(lastEventId);
        if (cut) return response;
        // The first GET stream is the one the test cuts, as a network drop would.
        const source = response.body.getReader();
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            cut = () => {
              controller.error(new Error('network drop'));
              source.cancel().catch(() => {});
            };
          },
          async pull(controller) {
            const { done, value } = await source.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      },
    });
    const client = new Client({ name: 'resuming', version: '1.0.0' });
    const received: number[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      received.push((params.data as { n: number }).n);
      if (received.length === 3) cut?.();
    });
    await client.connect(transport);
    await client.getPrompt({ name: 'broadcast', arguments: { count: '8', ms: '150' } });
    const limit = budget(5000);
    for (const started = performance.now(); performance.now() - started < limit && received.length < 8; )
      await sleep(100);
    expect(received).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(resumedFrom).toHaveLength(1);
    await client.close();
  });

  it('refuses an event id the session does not keep with 400', async () => {
    const sessionId = await openSession();
    const other = await openSession();
    const client = new AbortController();
    const next = events(await send('GET', other, { signal: client.signal }));
    await (await send('POST', other, { body: broadcast(2, 10) })).text();
    const elsewhere = (await readLogsUntil(next, 2)).at(-1)!.id;
    client.abort();
    // The other session's event id names nothing of it here (this session has fewer events).
    for (const lastEventId of [elsewhere, 'nope']) {
      const response = await send('GET', sessionId, { lastEventId });
      expect(response.status).toBe(400);
      await response.text();
    }
  });

  it('still gets them after wrangler dev restarted between the drop and the reconnect', async () => {
    const sessionId = await openSession();
    const client = new AbortController();
    const next = events(await send('GET', sessionId, { signal: client.signal }));
    const broadcasting = send('POST', sessionId, { body: broadcast(5, 100) });
    const seen = await readLogsUntil(next, 2);
    client.abort();
    await (await broadcasting).text();
    await dev.restart();
    const replayed = await messagesOf(await send('GET', sessionId, { lastEventId: seen.at(-1)!.id }));
    expect(replayed.map(({ message }) => (message.params as { data: { n: number } }).data.n)).toEqual([
      3, 4, 5,
    ]);
    // Nothing is left after the last one, and the session itself did not survive: 404 as before.
    const after = await send('GET', sessionId, { lastEventId: replayed.at(-1)!.id });
    expect(after.status).toBe(404);
    await after.text();
    const post = await send('POST', sessionId, {
      body: { jsonrpc: '2.0', id: nextId++, method: 'tools/list' },
    });
    expect(post.status).toBe(404);
    await post.text();
  });
});
