import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { liveCallSlots, messagesOf, modernRequest, openSession, until } from '../test-utils/mcp.js';

// mountMcp serving MCP 2026-07-28 beside 2025 sessions: /mcp-2026 has runtimeFor (and a call
// limit of one per identity), /mcp has none (src/mcp/test-worker.ts).
const at = 'http://toolctx.test/mcp-2026';
const as = (principal: string) => ({ authorization: `Bearer ${principal}` });

async function modern(
  principal: string,
  method: string,
  params: Record<string, unknown>,
  id: string | number = 1,
  init: RequestInit = {},
) {
  const request = modernRequest(method, params, id);
  return SELF.fetch(at, { ...request, ...init, headers: { ...request.headers, ...as(principal) } });
}

async function resultOf(response: Response) {
  const messages = messagesOf(await response.text(), response.headers.get('content-type'));
  return messages.at(-1) as { result?: Record<string, unknown>; error?: { code: number; data?: unknown } };
}

describe('mountMcp with runtimeFor: MCP 2026-07-28 beside 2025-11-25', () => {
  it('answers a 2026 tools/call in the Worker with the session class’s tools, and a 2025 initialize at the same URL opens a session', async () => {
    const response = await modern('ana', 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const { result } = await resultOf(response);
    expect(result).toMatchObject({ resultType: 'complete', structuredContent: { sum: 3 } });

    const listed = await resultOf(await modern('ana', 'tools/list', {}, 2));
    const names = ((listed.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain('add');
    expect(await openSession(at, as('ana'))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells a 2026 client -32022, naming 2025-11-25, where mountMcp has no runtimeFor', async () => {
    const request = modernRequest('tools/list', {}, 7);
    const response = await SELF.fetch('http://toolctx.test/mcp', request);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32022,
        message: expect.stringMatching(/runtimeFor/),
        data: { supported: ['2025-11-25'] },
      },
    });
  });

  it('counts a 2026 call against callLimit: past it a 429, another identity apart, and the slot back once the answer has gone out', async () => {
    const held = await modern(
      'bea',
      'tools/call',
      { name: 'steps', arguments: { count: 3, ms: 150 }, _meta: { progressToken: 's1' } },
      1,
    );
    expect(held.status).toBe(200);
    const reader = held.body!.getReader();
    await reader.read(); // its first progress report: the call runs and holds the slot
    expect(await liveCallSlots('bea')).toBe(1);

    const refused = await modern('bea', 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, 2);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      error: { data: { limit: 1, option: 'maxCallsPerIdentity' } },
    });
    const other = await resultOf(
      await modern('cid', 'tools/call', { name: 'add', arguments: { a: 2, b: 2 } }),
    );
    expect(other.result).toMatchObject({ structuredContent: { sum: 4 } });

    while (!(await reader.read()).done) {}
    await until(async () => (await liveCallSlots('bea')) === 0);
    const next = await resultOf(
      await modern('bea', 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, 3),
    );
    expect(next.result).toMatchObject({ structuredContent: { sum: 2 } });
  });

  it('takes a round’s state once in the deployment: a retry another handler (another isolate) served is refused here with -32602', async () => {
    const elicits = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
    const post = async (path: string, params: Record<string, unknown>) => {
      const request = modernRequest('tools/call', params, 1, elicits);
      const response = await SELF.fetch(`http://toolctx.test${path}`, {
        ...request,
        headers: { ...request.headers, ...as('ana') },
      });
      return resultOf(response);
    };
    const first = await post('/mcp-rounds-a', { name: 'ask_name', arguments: {} });
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    const retry = {
      name: 'ask_name',
      arguments: {},
      requestState: first.result?.requestState,
      inputResponses: { who: { action: 'accept', content: { name: 'Ana' } } },
    };
    const answered = await post('/mcp-rounds-b', retry);
    expect(answered.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ana!' }] });
    expect((await post('/mcp-rounds-a', retry)).error).toMatchObject({ code: -32602 });
  });
});
