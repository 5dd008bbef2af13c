import { env, runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';

// The official MCP SDK client, over streamable HTTP, against the test Worker running in workerd.
const url = new URL('http://toolctx.test/mcp');

async function connect(at = url, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'interop-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(at, {
    fetch: (input, init) => SELF.fetch(new Request(input, init)),
    requestInit: { headers },
  });
  await client.connect(transport);
  return { client, transport };
}

async function callState(client: Client, id: string): Promise<{ started: boolean; aborted: boolean }> {
  const result = await client.callTool({ name: 'call_state', arguments: { id } });
  return result.structuredContent as { started: boolean; aborted: boolean };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await check()).toBe(true);
}

describe('the MCP door in workerd, with the official SDK client', () => {
  it('starts a session whose id names its Durable Object, and lists the tools with JSON Schemas', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[0-9a-f]{64}$/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'add',
      'steps',
      'wait_for_abort',
      'whoami',
      'call_state',
    ]);
    expect(tools[0]!.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    await client.close();
  });

  it('lists each tool with its title and the annotations of its effect, as serveMcp does', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.add).toMatchObject({
      title: 'Add two numbers',
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(byName.steps!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(byName.wait_for_abort!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    await client.close();
  });

  it('calls a tool and gets its text and structured value', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    expect(result).toMatchObject({
      content: [{ type: 'text', text: '{"sum":42}' }],
      structuredContent: { sum: 42 },
    });
    await client.close();
  });

  it('delivers progress notifications in order, with progress, total and message', async () => {
    const { client } = await connect();
    const received: unknown[] = [];
    const result = await client.callTool({ name: 'steps', arguments: { count: 4, ms: 5 } }, undefined, {
      onprogress: (progress) => received.push(progress),
    });
    expect(result.content).toEqual([{ type: 'text', text: '4 steps done' }]);
    expect(received).toEqual([1, 2, 3, 4].map((n) => ({ progress: n, total: 4, message: `step ${n} of 4` })));
    await client.close();
  });

  it('delivers a cancel sent in a later request to the running tool', async () => {
    const { client } = await connect();
    const controller = new AbortController();
    const call = client
      .callTool({ name: 'wait_for_abort', arguments: { id: 'cancel-1' } }, undefined, {
        signal: controller.signal,
      })
      .then(
        () => 'resolved',
        () => 'rejected',
      );
    await until(async () => (await callState(client, 'cancel-1')).started);
    expect((await callState(client, 'cancel-1')).aborted).toBe(false);
    controller.abort('stop');
    expect(await call).toBe('rejected');
    await until(async () => (await callState(client, 'cancel-1')).aborted);
    await client.close();
  });

  it('keeps a long tool alive with resetTimeoutOnProgress, and times out without it', async () => {
    const { client } = await connect();
    const long = { name: 'steps', arguments: { count: 6, ms: 100 } };
    const result = await client.callTool(long, undefined, {
      timeout: 300,
      resetTimeoutOnProgress: true,
      onprogress: () => {},
    });
    expect(result.content).toEqual([{ type: 'text', text: '6 steps done' }]);
    await expect(client.callTool(long, undefined, { timeout: 300, onprogress: () => {} })).rejects.toThrow(
      /timed out/i,
    );
    await client.close();
  });

  it('cancels the running calls of a session its client closes with DELETE: the tool’s signal fires', async () => {
    const { client: watcher } = await connect();
    const { client, transport } = await connect();
    const call = client.callTool({ name: 'wait_for_abort', arguments: { id: 'delete-1' } }).then(
      () => 'resolved',
      () => 'rejected',
    );
    await until(async () => (await callState(watcher, 'delete-1')).started);
    expect((await callState(watcher, 'delete-1')).aborted).toBe(false);
    await transport.terminateSession();
    await until(async () => (await callState(watcher, 'delete-1')).aborted);
    await client.close();
    expect(await call).toBe('rejected');
    await watcher.close();
  });

  it('answers 404 to a session id that names no session, so the client starts anew', async () => {
    const unknown = await SELF.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-session-id': 'not-a-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
  });

  it('runs calls with the identity the Worker authenticated, never one a client claims, and no run id', async () => {
    const auth = new URL('http://toolctx.test/mcp-auth');
    const forged = { 'x-toolctx-identity': JSON.stringify({ tenant: 'evil', principal: 'root' }) };
    await expect(connect(auth, forged)).rejects.toThrow();
    const { client } = await connect(auth, { authorization: 'Bearer ana', ...forged });
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toEqual({
      identity: { tenant: 'acme', principal: 'ana' },
      hasRunId: false,
    });
    const anonymous = await connect(url, forged);
    const unauthenticated = await anonymous.client.callTool({ name: 'whoami', arguments: {} });
    expect(unauthenticated.structuredContent).toEqual({ identity: null, hasRunId: false });
    await client.close();
    await anonymous.client.close();
  });

  it("records the session's owner in storage; DELETE clears it, and so does the alarm once the session is gone", async () => {
    // env is typed for the example Worker (src/test-env.d.ts); this pool runs the MCP test Worker.
    const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
    const auth = new URL('http://toolctx.test/mcp-auth');
    const stored = (stub: DurableObjectStub) =>
      runInDurableObject(stub, async (_instance, state) => Object.fromEntries(await state.storage.list()));
    // The owner record, without the event store's keys (event-store.test.ts covers those).
    const record = async (stub: DurableObjectStub) =>
      Object.fromEntries(Object.entries(await stored(stub)).filter(([key]) => !key.startsWith('mcp-event')));

    const deleted = await connect(auth, { authorization: 'Bearer ana' });
    const deletedStub = sessions.get(sessions.idFromString(deleted.transport.sessionId!));
    expect(await record(deletedStub)).toEqual({ owner: { identity: { tenant: 'acme', principal: 'ana' } } });
    await deleted.transport.terminateSession();
    expect(await stored(deletedStub)).toEqual({});

    const before = Date.now();
    const evicted = await connect(auth, { authorization: 'Bearer ana', 'x-conversation': 'c1' });
    const stub = sessions.get(sessions.idFromString(evicted.transport.sessionId!));
    const alarm = () => runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    // An hour ahead, no later: so a session's records outlive it by an hour at most.
    const first = await alarm();
    expect(first).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(first).toBeLessThanOrEqual(Date.now() + 3_600_000);
    // While the session lives, the alarm keeps the record, and sets itself an hour ahead again.
    const rearmedFrom = Date.now();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rearmed = await alarm();
    expect(rearmed).toBeGreaterThanOrEqual(rearmedFrom + 3_600_000);
    expect(rearmed).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(await record(stub)).toEqual({
      owner: { identity: { tenant: 'acme', principal: 'ana', conversationId: 'c1' } },
    });
    // As after an eviction: nothing in memory, the record in storage. Every request is a 404.
    await runInDurableObject(stub, (instance) => {
      Object.assign(instance, { session: undefined, owner: undefined });
    });
    for (const token of ['ana', 'bob']) {
      const response = await SELF.fetch(auth, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'x-conversation': 'c1',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': evicted.transport.sessionId!,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
      await response.text();
    }
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stored(stub)).toEqual({});
    await deleted.client.close();
    await evicted.client.close();
  });
});
