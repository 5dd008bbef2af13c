// `sessionLimit` under `wrangler dev` (the MCP test Worker's /mcp-capped: two sessions per
// identity): the SDK client meets the 429, the count outlives a restart, and a session lost in the
// restart gives its slot back when its owner closes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpWorker, startMcpWorker } from './mcp-worker.js';

let worker: McpWorker;
beforeAll(async () => {
  worker = await startMcpWorker('/mcp-capped');
});
afterAll(() => worker?.dev.stop());

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'third', version: '1' } },
};

describe('MCP sessions per identity, under wrangler dev', () => {
  it('refuses a third session with 429 and Retry-After, keeps the count across a restart, and frees a lost session’s slot when its owner closes it', async () => {
    const first = await worker.connectAs('gus');
    const second = await worker.connectAs('gus');
    expect((await first.client.listTools()).tools.length).toBeGreaterThan(0);

    const third = await worker.raw('gus', undefined, { body: initialize });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('60');
    expect(((await third.json()) as { error: { message: string } }).error.message).toMatch(
      /limit of 2 live MCP sessions for this identity.*maxSessionsPerIdentity/,
    );
    await expect(worker.connectAs('gus')).rejects.toThrow(/429|limit of 2/);
    const other = await worker.connectAs('hal');

    await worker.dev.restart();
    // The sessions were in memory and are lost; their slots were counted durably and still are.
    const afterRestart = await worker.raw('gus', undefined, { body: initialize });
    expect(afterRestart.status).toBe(429);
    await afterRestart.text();
    // The owner closes a lost session: 404, as for any lost session, and its slot is free again.
    const closed = await worker.raw('gus', first.sessionId, { method: 'DELETE' });
    expect(closed.status).toBe(404);
    await closed.text();
    const reopened = await worker.connectAs('gus');
    expect((await reopened.client.listTools()).tools.length).toBeGreaterThan(0);

    for (const client of [second, other, reopened]) await client.client.close().catch(() => {});
  });
});
