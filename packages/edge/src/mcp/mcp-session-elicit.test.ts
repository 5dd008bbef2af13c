import { SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { readSse } from '@toolctx/core/sse';
import { describe, expect, it } from 'vitest';

// Approvals by elicitation through McpSession: the test Worker's /mcp-approve serves `delete_note`,
// which needs approval; its runtime's port leaves every call pending, for the person to decide.
const at = 'http://toolctx.test/mcp-approve';
const base = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

async function connect(answer?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>) {
  const client = new Client(
    { name: 'approver', version: '1.0.0' },
    answer ? { capabilities: { elicitation: {} } } : {},
  );
  const asked: ElicitRequest[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return answer(request);
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(at), {
    fetch: (input, init) => SELF.fetch(new Request(input, init)),
  });
  await client.connect(transport);
  return { client, asked };
}

const deleted = async (client: Client) =>
  (
    (await client.callTool({ name: 'deleted_notes', arguments: {} })).structuredContent as {
      deleted: string[];
    }
  ).deleted;
const errorOf = (result: unknown) =>
  (result as { structuredContent: { error: { kind: string } } }).structuredContent.error;

/** A raw session that declared elicitation; `post` sends one JSON-RPC message in it. */
async function rawSession() {
  const init = await SELF.fetch(at, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'raw', version: '1' },
      },
    }),
  });
  await init.text();
  const session = init.headers.get('mcp-session-id')!;
  const post = (message: unknown) =>
    SELF.fetch(at, {
      method: 'POST',
      headers: { ...base, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify(message),
    });
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  return post;
}

async function* messages(response: Response): AsyncGenerator<Record<string, unknown>> {
  for await (const event of readSse(response.body!)) if (event.data.trim()) yield JSON.parse(event.data);
}

describe('McpSession asks for approval by elicitation', () => {
  it('answers approval-pending to a client that declared no elicitation', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'delete_note', arguments: { note: 'pending-1' } });
    expect(errorOf(result).kind).toBe('approval-pending');
    expect(await deleted(client)).not.toContain('pending-1');
    await client.close();
  });

  it('asks the person, and runs the tool once when they accept', async () => {
    const { client, asked } = await connect(() => ({ action: 'accept' }));
    const result = await client.callTool({ name: 'delete_note', arguments: { note: 'accepted-1' } });
    expect(result.content).toEqual([{ type: 'text', text: 'deleted accepted-1' }]);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params.message).toContain('Allow "Delete a note" (delete_note) to run?');
    expect(asked[0]!.params.message).toContain('- note: accepted-1');
    expect((await deleted(client)).filter((note) => note === 'accepted-1')).toHaveLength(1);
    await client.close();
  });

  it('denies the call when the person declines, and ends it as cancelled when they cancel', async () => {
    const { client } = await connect(({ params }) =>
      params.message.includes('declined-1') ? { action: 'decline' } : { action: 'cancel' },
    );
    const declined = await client.callTool({ name: 'delete_note', arguments: { note: 'declined-1' } });
    expect(errorOf(declined).kind).toBe('approval-denied');
    const cancelled = await client.callTool({ name: 'delete_note', arguments: { note: 'cancelled-1' } });
    expect(errorOf(cancelled).kind).toBe('aborted');
    const notes = await deleted(client);
    expect(notes).not.toContain('declined-1');
    expect(notes).not.toContain('cancelled-1');
    await client.close();
  });

  it("sends the question on the call's own response stream, and takes the answer in a POST of its own", async () => {
    const post = await rawSession();
    const call = await post({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'delete_note', arguments: { note: 'raw-1' } },
    });
    expect(call.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = messages(call);
    const question = (await stream.next()).value!;
    expect(question.method).toBe('elicitation/create');
    const answered = await post({ jsonrpc: '2.0', id: question.id, result: { action: 'accept' } });
    expect(answered.status).toBe(202);
    const result = (await stream.next()).value!;
    expect(result).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'deleted raw-1' }] } });
  });

  it("lets no other session answer a session's question: request ids belong to their session", async () => {
    const post = await rawSession();
    const other = await rawSession();
    const call = await post({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'delete_note', arguments: { note: 'foreign-1' } },
    });
    const stream = messages(call);
    const question = (await stream.next()).value!;
    // The same id in another session names nothing there: A's question stays open.
    await (await other({ jsonrpc: '2.0', id: question.id, result: { action: 'accept' } })).text();
    await post({ jsonrpc: '2.0', id: question.id, result: { action: 'decline' } });
    const result = (await stream.next()).value as {
      result: { structuredContent: { error: { kind: string } } };
    };
    expect(result.result.structuredContent.error.kind).toBe('approval-denied');
  });

  it('runs nothing when the client cancels the call while the question is open', async () => {
    let opened: (() => void) | undefined;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const late: { answer?: (result: ElicitResult) => void } = {};
    const { client } = await connect(
      () =>
        new Promise<ElicitResult>((resolve) => {
          late.answer = resolve;
          opened!();
        }),
    );
    const controller = new AbortController();
    const call = client.callTool({ name: 'delete_note', arguments: { note: 'withdrawn-1' } }, undefined, {
      signal: controller.signal,
    });
    await open;
    controller.abort();
    await expect(call).rejects.toThrow();
    // The cancel and a later answer travel in POSTs of their own; the answer comes once the
    // cancel has had time to arrive, as a person's click after the client gave up would.
    await new Promise((resolve) => setTimeout(resolve, 200));
    late.answer!({ action: 'accept' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await deleted(client)).not.toContain('withdrawn-1');
    await client.close();
  });
});
