// serveMcpHttp's dropped streams, by revision: a 2025-11-25 session's call whose client dropped its
// POST stream goes on and its result waits in the session's event store for a GET with
// Last-Event-ID (`notifications/cancelled` and DELETE still cancel); a 2026-07-28 request whose
// client hangs up (`request.signal`) is cancelled. Raw streamable HTTP, as a Node adapter hands it
// over: a closed socket is a cancelled response body (2025) or an aborted request signal (2026).
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { parseSse } from '../sse/index.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcpHttp } from './serve-mcp-http.js';

/** What happened to each `hold` call, and how to end one with a result, by its id. */
const held = new Map<string, { aborted: boolean }>();
const releases = new Map<string, () => void>();
const hold = defineTool({
  name: 'hold',
  description: 'Reports progress, then runs until its signal fires or it is released.',
  inputSchema: z.object({ id: z.string() }),
  execute: ({ id }, ctx) =>
    new Promise((resolve, reject) => {
      const state = { aborted: false };
      held.set(id, state);
      releases.set(id, () => resolve({ released: id }));
      ctx.progress({ message: 'holding' });
      ctx.signal.addEventListener('abort', () => {
        state.aborted = true;
        reject(ctx.signal.reason);
      });
    }),
});

const mcp = serveMcpHttp(createRuntime({ tools: [hold] }));
afterAll(() => mcp.close());

const url = 'http://localhost/mcp';

function legacy(sessionId: string | undefined, body?: unknown, headers: Record<string, string> = {}) {
  return mcp.fetch(
    new Request(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        accept: body === undefined ? 'text/event-stream' : 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-11-25',
        ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

async function openSession(): Promise<string> {
  const init = await legacy(undefined, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'drops', version: '1' } },
  });
  await init.text();
  const sessionId = init.headers.get('mcp-session-id');
  if (!sessionId) throw new Error(`initialize answered ${init.status}`);
  await (await legacy(sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  return sessionId;
}

const callHold = (id: string, requestId: number) => ({
  jsonrpc: '2.0',
  id: requestId,
  method: 'tools/call',
  params: { name: 'hold', arguments: { id }, _meta: { progressToken: requestId } },
});

/** Reads a POST's stream up to the call's first progress report; answers the priming event's id. */
async function startHold(sessionId: string, id: string, requestId: number) {
  const response = await legacy(sessionId, callHold(id, requestId));
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = '';
  while (!seen.includes('notifications/progress')) seen += (await reader.read()).value ?? '';
  return { reader, primingId: seen.match(/^id: (.+)$/m)![1]! };
}

const messagesOf = async (response: Response) =>
  parseSse(await response.text()).flatMap((event) => (event.data ? [JSON.parse(event.data)] : []));

describe('serveMcpHttp: dropped streams by revision', () => {
  it('2025: a call whose client dropped its POST stream goes on, and a GET with Last-Event-ID gets its result from the event store', async () => {
    const sessionId = await openSession();
    const { reader, primingId } = await startHold(sessionId, 'node-drop', 7);
    await reader.cancel();
    // A macrotask later: whatever the cancel set off in promise callbacks has run.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(held.get('node-drop')).toEqual({ aborted: false });
    releases.get('node-drop')!();
    const resumed = await messagesOf(await legacy(sessionId, undefined, { 'last-event-id': primingId }));
    expect(resumed.at(-1)).toMatchObject({ id: 7, result: { structuredContent: { released: 'node-drop' } } });
  });

  it('2025: notifications/cancelled and a DELETE of the session still cancel a running call', async () => {
    const sessionId = await openSession();
    const cancelled = await startHold(sessionId, 'node-cancel', 8);
    const cancel = await legacy(sessionId, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 8, reason: 'no longer needed' },
    });
    expect(cancel.status).toBe(202);
    await expect.poll(() => held.get('node-cancel')).toEqual({ aborted: true });
    await cancelled.reader.cancel();

    const deleted = await startHold(sessionId, 'node-delete', 9);
    const closed = await mcp.fetch(
      new Request(url, {
        method: 'DELETE',
        headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      }),
    );
    expect(closed.status).toBe(200);
    await expect.poll(() => held.get('node-delete')).toEqual({ aborted: true });
    await deleted.reader.cancel().catch(() => {});
  });

  it('2026: a client that hangs up (request.signal) cancels its call', async () => {
    const client = new AbortController();
    const response = await mcp.fetch(
      new Request(url, {
        method: 'POST',
        signal: client.signal,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'hold',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'hold',
            arguments: { id: 'node-modern' },
            _meta: {
              progressToken: 1,
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      }),
    );
    const reader = response.body!.getReader();
    await reader.read(); // its progress report: the call runs
    expect(held.get('node-modern')).toEqual({ aborted: false });
    client.abort();
    await expect.poll(() => held.get('node-modern')).toEqual({ aborted: true });
  });
});
