import { env, runInDurableObject, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

// The MCP session's streams in workerd, raw streamable HTTP on the test Worker's /mcp-streams
// (streams-test-session.ts): priming events, heartbeats, and resumes answered from the store.
// Dropped streams under a real `wrangler dev` are test/worker/mcp-streams.test.ts.
const url = 'http://localhost/mcp-streams';
const protocolVersion = '2025-11-25';
const sessions = (env as unknown as { MCP_STREAM_SESSIONS: DurableObjectNamespace }).MCP_STREAM_SESSIONS;

function send(method: 'GET' | 'POST', sessionId?: string, body?: unknown, lastEventId?: string) {
  return SELF.fetch(url, {
    method,
    headers: {
      accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': protocolVersion,
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function openSession(): Promise<string> {
  const init = await send('POST', undefined, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'streams', version: '1' } },
  });
  await init.text();
  const sessionId = init.headers.get('mcp-session-id')!;
  await (await send('POST', sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  return sessionId;
}

/** What a stream carries within `ms` (or until it ends), as text; then the reader lets go. */
async function textWithin(response: Response, ms: number): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const deadline = Date.now() + ms;
  let text = '';
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<undefined>((resolve) => setTimeout(resolve, left)),
    ]);
    if (!chunk || chunk.done) break;
    text += chunk.value;
  }
  await reader.cancel().catch(() => {});
  return text;
}

/** The `id` and parsed `data` of each SSE event with data in `text`. */
function eventsOf(text: string): { id?: string; message: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .map((block) => ({
      id: block.match(/^id: (.*)$/m)?.[1],
      data: block.match(/^data: (.+)$/m)?.[1],
    }))
    .filter((event): event is { id: string | undefined; data: string } => event.data !== undefined)
    .map(({ id, data }) => ({ id, message: JSON.parse(data) }));
}

const logNumbers = (text: string) =>
  eventsOf(text)
    .map(({ message }) => (message.params as { data?: { n?: number } } | undefined)?.data?.n)
    .filter((n) => n !== undefined);

describe("the MCP session's streams in workerd", () => {
  it('a POST stream opens with a priming event (its id, retry 1000) and writes a heartbeat every 500 ms while the call runs', async () => {
    const sessionId = await openSession();
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'hold', arguments: { id: 'beat' } },
    };
    const text = await textWithin(await send('POST', sessionId, call), 1300);
    expect(text).toMatch(/^id: \d+\nretry: 1000\ndata: \n\n/);
    // Two beats in 1.3 s (at 0.5 and 1 s); two or three hold only for a beat every 325–650 ms.
    const beats = text.split(': keep-alive\n\n').length - 1;
    expect(beats).toBeGreaterThanOrEqual(2);
    expect(beats).toBeLessThanOrEqual(3);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    await (await send('POST', sessionId, cancel)).text();
  });

  it('a resume of a POST stream whose answer is stored gets the answer from the store, and the stream ends', async () => {
    const sessionId = await openSession();
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'held', arguments: { id: 'none' } },
    };
    const first = await (await send('POST', sessionId, call)).text();
    const primingId = first.match(/^id: (\d+)$/m)![1]!;
    const resumed = await send('GET', sessionId, undefined, primingId);
    expect(resumed.status).toBe(200);
    const events = eventsOf(await resumed.text());
    expect(events.map(({ message }) => message)).toEqual([
      { jsonrpc: '2.0', id: 2, result: expect.any(Object) },
    ]);
    expect(events[0]!.message).toEqual(eventsOf(first).at(-1)!.message);
  });

  it('a request whose stream its handler closed for polling keeps its id until its answer, which the resume reads', async () => {
    const sessionId = await openSession();
    const poll = {
      jsonrpc: '2.0',
      id: 7,
      method: 'prompts/get',
      params: { name: 'poll', arguments: { ms: '400' } },
    };
    const closed = await (await send('POST', sessionId, poll)).text();
    expect(eventsOf(closed)).toEqual([]);
    const primingId = closed.match(/^id: (\d+)$/m)![1]!;
    const reused = await send('POST', sessionId, {
      ...poll,
      params: { name: 'poll', arguments: { ms: '0' } },
    });
    expect(reused.status).toBe(409);
    await reused.text();
    const resumed = eventsOf(await (await send('GET', sessionId, undefined, primingId)).text());
    expect(resumed.map(({ message }) => message)).toMatchObject([
      { id: 7, result: { messages: [{ role: 'user' }] } },
    ]);
    const again = await send('POST', sessionId, {
      ...poll,
      params: { name: 'poll', arguments: { ms: '0' } },
    });
    expect(again.status).toBe(200);
    await again.text();
  });

  it('a POST stream the client drops does not cancel its call: the call goes on, and a GET with Last-Event-ID gets its result, live and then from the store', async () => {
    const sessionId = await openSession();
    const call = (name: string, id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: { id: 'dropped' }, _meta: { progressToken: id } },
    });
    const reader = (await send('POST', sessionId, call('hold', 20)))
      .body!.pipeThrough(new TextDecoderStream())
      .getReader();
    let seen = '';
    while (!seen.includes('notifications/progress')) seen += (await reader.read()).value ?? '';
    const primingId = seen.match(/^id: (\d+)$/m)![1]!;
    await reader.cancel();
    // Here the cancel reaches the session object at once (before, it cancelled the call within
    // 100 ms): for a second the call keeps running.
    for (const started = Date.now(); Date.now() - started < 1000; ) {
      const held = await (await send('POST', sessionId, call('held', 21))).text();
      expect(eventsOf(held).at(-1)!.message).toMatchObject({
        result: { structuredContent: { aborted: false, tornDown: false } },
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const resumed = await send('GET', sessionId, undefined, primingId);
    expect(resumed.status).toBe(200);
    const released = await (await send('POST', sessionId, call('release', 22))).text();
    expect(eventsOf(released).at(-1)!.message).toMatchObject({
      result: { structuredContent: { released: true } },
    });
    const answer = { jsonrpc: '2.0', id: 20, result: { structuredContent: { released: 'dropped' } } };
    const live = eventsOf(await resumed.text()).map(({ message }) => message);
    expect(live.at(-1)).toMatchObject(answer);
    expect(live[0]).toMatchObject({ method: 'notifications/progress' });
    // Asked again, the store alone answers: what the call sent after the priming event, then its answer.
    const stored = eventsOf(await (await send('GET', sessionId, undefined, primingId)).text());
    expect(stored.map(({ message }) => message)).toEqual(live);
  });

  it('after an eviction, a resume gets the events stored after its id, then ends; nothing else of the lost session is served', async () => {
    const sessionId = await openSession();
    const stream = send('GET', sessionId);
    const broadcast = {
      jsonrpc: '2.0',
      id: 3,
      method: 'prompts/get',
      params: { name: 'broadcast', arguments: { count: '3', ms: '20' } },
    };
    await (await send('POST', sessionId, broadcast)).text();
    const live = await textWithin(await stream, 300);
    expect(logNumbers(live)).toEqual([1, 2, 3]);
    const afterFirst = eventsOf(live)[0]!.id!;

    // As after an eviction: nothing in memory, the owner and the events in storage.
    await runInDurableObject(sessions.get(sessions.idFromString(sessionId)), (instance) => {
      Object.assign(instance, { session: undefined, owner: undefined });
    });
    const resumed = await send('GET', sessionId, undefined, afterFirst);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('mcp-session-id')).toBe(sessionId);
    expect(logNumbers(await resumed.text())).toEqual([2, 3]);
    const post = await send('POST', sessionId, { jsonrpc: '2.0', id: 4, method: 'tools/list' });
    expect(post.status).toBe(404);
    await post.text();
    const plainGet = await send('GET', sessionId);
    expect(plainGet.status).toBe(404);
    await plainGet.text();
  });
});
