// MCP 2026-07-28 under `wrangler dev` (the MCP test Worker's /mcp-2026: mountMcp with runtimeFor,
// one call in flight per identity, compatibility flag enable_request_signal): a client that
// closes its stream cancels its call, as the revision requires ("The server MUST treat a client
// disconnect as cancellation of that request"): the tool's signal fires and its call slot comes back.
import { readSse } from '@toolctx/core/sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../slowdown.js';
import { type McpWorker, startMcpWorker } from './mcp-worker.js';

let worker: McpWorker;
beforeAll(async () => {
  worker = await startMcpWorker('/mcp-2026');
});
afterAll(() => worker?.dev.stop());

/** A 2026-07-28 `tools/call` as `principal`: the revision's headers, and its version in `_meta`. */
function call(
  principal: string,
  name: string,
  args: Record<string, unknown>,
  init: { id?: number; signal?: AbortSignal; progress?: boolean } = {},
): Promise<Response> {
  return fetch(`${worker.dev.url}/mcp-2026`, {
    method: 'POST',
    signal: init.signal,
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      authorization: `Bearer ${principal}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: init.id ?? 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          ...(init.progress === false ? {} : { progressToken: `p-${init.id ?? 1}` }),
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

/** A call's structured result, whether answered as JSON or as SSE. */
async function structured(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(200);
  let message: { result?: { structuredContent?: Record<string, unknown> } } | undefined;
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    for await (const event of readSse(response.body!)) if (event.data) message = JSON.parse(event.data);
  } else message = await response.json();
  if (!message?.result?.structuredContent) throw new Error(`no result: ${JSON.stringify(message)}`);
  return message.result.structuredContent;
}

/** Call slots `principal` holds (the test Worker's /test/call-slots). */
async function live(principal: string): Promise<number> {
  const response = await fetch(`${worker.dev.url}/test/call-slots?principal=${principal}`);
  return ((await response.json()) as { live: number }).live;
}

describe('MCP 2026-07-28 under wrangler dev: a closed stream cancels its call', () => {
  // With a progress token the SDK streams the call's progress; without one it would answer JSON
  // at the end, so the door answers SSE once the call takes longer than a heartbeat.
  it.each([
    ['with progress (the SDK’s own stream)', 'ida', true],
    ['without progress (a JSON answer not yet in)', 'ivy', false],
  ] as const)(
    "a client that aborts its fetch mid-call, %s, cancels the call: the tool's signal fires and its call slot comes back",
    async (_, principal, progress) => {
      const id = `modern-drop-${principal}`;
      const client = new AbortController();
      const response = await call(principal, 'wait_for_abort', { id }, { signal: client.signal, progress });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      if (progress) {
        const first = (await readSse(response.body!)[Symbol.asyncIterator]().next()).value;
        expect(JSON.parse(first!.data)).toMatchObject({ method: 'notifications/progress' });
      }
      // Another identity asks (the caller's one slot is held): the call runs, its signal has not fired.
      await waitUntil(async () => (await structured(await call('joe', 'call_state', { id }))).started, {
        what: 'the call to start',
        ms: 5000,
      });
      expect(await structured(await call('joe', 'call_state', { id }))).toEqual({
        started: true,
        aborted: false,
      });
      expect(await live(principal)).toBe(1);

      client.abort();
      const closed = performance.now();
      await waitUntil(async () => (await structured(await call('joe', 'call_state', { id }))).aborted, {
        what: "the closed stream's tool to see its signal fire",
        ms: 5000,
      });
      const abortedMs = Math.round(performance.now() - closed);
      await waitUntil(async () => (await live(principal)) === 0, {
        what: "the closed stream's call slot to come back",
        ms: 5000,
      });
      const freedMs = Math.round(performance.now() - closed);
      console.log(
        `2026 stream closed (${progress ? 'progress' : 'no progress'}): the tool's signal fired ${abortedMs} ms later, its slot back ${freedMs} ms later`,
      );
      expect(abortedMs).toBeLessThan(2000);
      expect(freedMs).toBeLessThan(2000);
      // The caller's next call gets the slot.
      expect(await structured(await call(principal, 'add', { a: 1, b: 2 }, { id: 2 }))).toEqual({ sum: 3 });
    },
  );
});
