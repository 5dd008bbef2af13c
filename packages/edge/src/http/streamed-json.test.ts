import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { memoryServer } from '../test-utils/server.js';
import { eventsOf, messagesUntil } from '../test-utils/sse.js';

// A plain JSON call is answered at once: 200, then whitespace heartbeats while the call runs, then
// the ToolResult. Refusals found before the call starts keep their own status.
describe('HTTP door: a JSON call streams its answer', () => {
  it('answers 200 before the call ends, uncompressed; the body is whitespace then the result, and response.json() reads it', async () => {
    const { post, startRun } = memoryServer({ heartbeatMs: 20 });
    const runId = await startRun();
    const started = Date.now();
    const response = await post(
      `/runs/${runId}/calls`,
      { tool: 'slow_wait', args: { ms: 3000 }, toolCallId: 'streamed' },
      { headers: { 'accept-encoding': 'gzip' } },
    );
    // Well before the call's 3 s: room for a loaded machine, and still only possible if streamed.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-encoding')).toBe('identity');
    expect(response.headers.get('x-toolctx-call-id')).toBe('streamed');
    const text = await response.clone().text();
    expect(text).toMatch(/^\n{3,}\{"ok":true/);
    expect(await response.json()).toMatchObject({ ok: true, value: { waitedMs: expect.any(Number) } });
  });

  it('refusals found before the call starts are real statuses with an ErrorInfo body', async () => {
    const { post, startRun } = memoryServer();
    const runId = await startRun();
    const cases: [string, unknown, number, string][] = [
      ['/runs/run_nope/calls', { tool: 'count_steps', args: { steps: 1 } }, 404, 'not-found'],
      [`/runs/${runId}/calls`, { tool: 'no_such_tool', args: {} }, 404, 'unknown-tool'],
      [`/runs/${runId}/calls`, { tool: 42 }, 400, 'bad-request'],
    ];
    for (const [path, body, status, kind] of cases) {
      const response = await post(path, body);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ kind });
    }
    const running = await post(`/runs/${runId}/calls`, {
      tool: 'slow_wait',
      args: { ms: 200 },
      toolCallId: 'dup',
    });
    const duplicate = await post(`/runs/${runId}/calls`, {
      tool: 'slow_wait',
      args: { ms: 1 },
      toolCallId: 'dup',
    });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toMatchObject({ kind: 'conflict' });
    expect(await running.json()).toMatchObject({ ok: true });
  });

  it('through the Worker, a client that hangs up on a JSON call aborts the tool', async () => {
    const send = (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', 'Bearer test-token');
      headers.set('content-type', 'application/json');
      return exports.default.fetch(new Request(`http://toolctx.test${path}`, { ...init, headers }));
    };
    const { runId } = (await (await send('/runs', { method: 'POST', body: '{}' })).json()) as {
      runId: string;
    };
    const client = new AbortController();
    const response = await send(`/runs/${runId}/calls`, {
      method: 'POST',
      body: JSON.stringify({ tool: 'slow_wait', args: { ms: 60_000 }, toolCallId: 'json-hang-up' }),
      signal: client.signal,
    });
    expect(response.status).toBe(200);
    client.abort();
    const events = eventsOf(
      await messagesUntil(await send(`/runs/${runId}/events`), (m) => m.event === 'tool.failed'),
    );
    expect(events.at(-1)).toMatchObject({ callId: 'json-hang-up', data: { error: { kind: 'aborted' } } });
  });
});
