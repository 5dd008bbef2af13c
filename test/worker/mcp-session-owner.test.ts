// An MCP session belongs to the identity that opened it, under `wrangler dev`: ana uses the
// official SDK client; bob, authenticated too, sends raw requests naming ana's session. Each of
// bob's attacks gets exactly the 404 of a session that does not exist, and ana's session carries on.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { type McpClientAs, type McpWorker, type SentMessage, startMcpWorker } from './mcp-worker.js';

let worker: McpWorker;
/** The 404 of a session id that names no session: one never issued, and one deleted. */
let notFound: { malformed: Observed; deleted: string };

beforeAll(async () => {
  worker = await startMcpWorker();
  const deleted = await worker.openRaw('ana');
  const gone = await worker.raw('ana', deleted, { method: 'DELETE' });
  expect(gone.status).toBe(200);
  notFound = {
    malformed: await observe(await worker.raw('bob', 'f'.repeat(64), { body: rpc('tools/list') })),
    deleted,
  };
});
afterAll(() => worker?.dev.stop());

interface Observed {
  status: number;
  headers: [string, string][];
  body: string;
}

/** Everything a client sees of a response: status, every header, the body. */
async function observe(response: Response): Promise<Observed> {
  const headers: [string, string][] = [];
  // This lib has no Headers iterator.
  response.headers.forEach((value, name) => {
    headers.push([name, value]);
  });
  return { status: response.status, headers, body: await response.text() };
}

const rpc = (method: string, params?: unknown, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

/** What bob would get for `method` on a session that does not exist (deleted, or never issued). */
async function expectUnknownSession(seen: Observed, method = 'POST') {
  const body = method === 'POST' ? rpc('tools/list') : undefined;
  const deleted = await observe(await worker.raw('bob', notFound.deleted, { method, body }));
  expect(seen.status).toBe(404);
  expect(seen).toEqual(deleted);
  expect(seen).toEqual(notFound.malformed);
}

async function callState(client: Client, id: string) {
  const result = await client.callTool({ name: 'call_state', arguments: { id } });
  return result.structuredContent as { started: boolean; aborted: boolean };
}

/** Looks at `check` for up to 2 s (scaled), then expects it to hold. */
async function until(check: () => Promise<boolean>) {
  const limit = budget(2000);
  for (const started = performance.now(); performance.now() - started < limit && !(await check()); )
    await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await check()).toBe(true);
}

/** The JSON-RPC id the SDK client gave its tools/call of `name` with these `args`. */
function requestIdOf(ana: McpClientAs, name: string, args: Record<string, unknown>): string | number {
  const call = ana.sent.find(
    (message: SentMessage) =>
      message.method === 'tools/call' &&
      message.params?.name === name &&
      JSON.stringify(message.params.arguments) === JSON.stringify(args),
  );
  if (call?.id === undefined) throw new Error(`no tools/call of ${name} was sent`);
  return call.id;
}

describe('an MCP session under wrangler dev belongs to the identity that opened it', () => {
  it('runs ana with her own identity (the SDK client authenticates)', async () => {
    const ana = await worker.connectAs('ana');
    const result = await ana.client.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toMatchObject({ identity: { tenant: 'acme', principal: 'ana' } });
    await ana.client.close();
  });

  it("bob's tools/call in ana's session → the unknown-session 404, and no tool runs", async () => {
    const ana = await worker.connectAs('ana');
    const seen = await observe(
      await worker.raw('bob', ana.sessionId, {
        body: rpc('tools/call', { name: 'wait_for_abort', arguments: { id: 'bob-call' } }),
      }),
    );
    await expectUnknownSession(seen);
    expect(await callState(ana.client, 'bob-call')).toEqual({ started: false, aborted: false });
    await ana.client.close();
  });

  it("bob's notifications/cancelled for ana's running call → the unknown-session 404, and the call is not aborted", async () => {
    const ana = await worker.connectAs('ana');
    const controller = new AbortController();
    const args = { id: 'ana-waits' };
    const call = ana.client
      .callTool({ name: 'wait_for_abort', arguments: args }, undefined, { signal: controller.signal })
      .then(
        () => 'resolved',
        () => 'rejected',
      );
    await until(async () => (await callState(ana.client, 'ana-waits')).started);
    const requestId = requestIdOf(ana, 'wait_for_abort', args);
    const seen = await observe(
      await worker.raw('bob', ana.sessionId, {
        body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'bob' } },
      }),
    );
    await expectUnknownSession(seen);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await callState(ana.client, 'ana-waits')).toEqual({ started: true, aborted: false });
    // Ana's own cancel still gets through: the check above could have seen an abort.
    controller.abort('ana stops');
    expect(await call).toBe('rejected');
    await until(async () => (await callState(ana.client, 'ana-waits')).aborted);
    await ana.client.close();
  });

  it("bob's DELETE of ana's session → the unknown-session 404, and ana's session still works", async () => {
    const ana = await worker.connectAs('ana');
    const seen = await observe(await worker.raw('bob', ana.sessionId, { method: 'DELETE' }));
    await expectUnknownSession(seen, 'DELETE');
    const result = await ana.client.callTool({ name: 'add', arguments: { a: 40, b: 2 } });
    expect(result.structuredContent).toEqual({ sum: 42 });
    await ana.client.close();
  });

  it("bob's GET of ana's stream → the unknown-session 404; ana's stream stays hers, and she can open it", async () => {
    // The SDK client opened the session's GET stream: a second GET by ana is refused as a conflict,
    // so the stream is still the client's after bob's attempt.
    const ana = await worker.connectAs('ana');
    await expectUnknownSession(
      await observe(await worker.raw('bob', ana.sessionId, { method: 'GET' })),
      'GET',
    );
    const second = await worker.raw('ana', ana.sessionId, { method: 'GET' });
    expect(second.status).toBe(409);
    await second.text();
    await ana.client.close();
    // A session whose GET stream is not open yet: bob's attempt takes nothing, ana opens it.
    const session = await worker.openRaw('ana');
    await expectUnknownSession(await observe(await worker.raw('bob', session, { method: 'GET' })), 'GET');
    const stream = await worker.raw('ana', session, { method: 'GET' });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.body?.cancel();
  });

  it("bob reusing ana's in-flight request id → the unknown-session 404; ana gets her own progress and result", async () => {
    const ana = await worker.connectAs('ana');
    const progress: unknown[] = [];
    const args = { count: 5, ms: 100 };
    const call = ana.client.callTool({ name: 'steps', arguments: args }, undefined, {
      onprogress: (report) => progress.push(report.progress),
    });
    await until(async () => progress.length > 0);
    const requestId = requestIdOf(ana, 'steps', args);
    const seen = await observe(
      await worker.raw('bob', ana.sessionId, {
        body: rpc('tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, requestId),
      }),
    );
    await expectUnknownSession(seen);
    const result = await call;
    expect(result.content).toEqual([{ type: 'text', text: '5 steps done' }]);
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    await ana.client.close();
  });

  it('refuses a POST without a session id that is not initialize (400), and creates no session object', async () => {
    const tag = `no-session-${Date.now()}`;
    const headers = { 'x-test-tag': tag };
    const list = await worker.raw('bob', undefined, { body: rpc('tools/list'), headers });
    expect(list.status).toBe(400);
    expect(list.headers.get('mcp-session-id')).toBeNull();
    expect(await list.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/initialize/) },
      id: null,
    });
    for (const method of ['GET', 'DELETE']) {
      const response = await worker.raw('bob', undefined, { method, headers });
      expect(response.status).toBe(400);
      await response.text();
    }
    expect(await worker.sessionStubs(tag)).toBe(0);
    // The counter sees the object an initialize does create.
    const opened = await worker.raw('bob', undefined, {
      body: rpc(
        'initialize',
        { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bob', version: '1' } },
        0,
      ),
      headers,
    });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('mcp-session-id')).toMatch(/^[0-9a-f]{64}$/);
    await opened.text();
    expect(await worker.sessionStubs(tag)).toBe(1);
  });
});
