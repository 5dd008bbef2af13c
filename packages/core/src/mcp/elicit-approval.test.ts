import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ApprovalPort } from '../approval/approval.js';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import { createRuntime, type Runtime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { type ServeMcpOptions, serveMcp } from './serve-mcp.js';

function setUp(approval: ApprovalPort = createMemoryApprovalPort()) {
  const runs: { path: string; approvalId: string | undefined }[] = [];
  const remove = defineTool({
    name: 'delete_file',
    title: 'Delete a file',
    description: 'Deletes a file from the workspace.',
    inputSchema: z.object({ path: z.string(), force: z.boolean().optional() }),
    effect: 'write',
    needsApproval: true,
    timeoutMs: 2_000,
    execute: ({ path }, ctx) => {
      runs.push({ path, approvalId: ctx.approval?.approvalId });
      return `deleted ${path}`;
    },
  });
  const slow = defineTool({
    name: 'slow_to_approve',
    description: 'Needs approval within 100 ms.',
    inputSchema: z.object({}),
    needsApproval: true,
    timeoutMs: 100,
    execute: () => {
      runs.push({ path: '-', approvalId: undefined });
      return 'ran';
    },
  });
  return { runtime: createRuntime({ tools: [remove, slow], approval }), runs };
}

type Answer = (request: ElicitRequest, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;

/** A client of `runtime`'s MCP server, declaring elicitation when given `answer`. */
async function connect(runtime: Runtime, answer?: Answer, options: ServeMcpOptions = {}) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: { message: JSONRPCMessage; relatedRequestId?: RequestId }[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    sent.push({ message, relatedRequestId: options?.relatedRequestId });
    return send(message, options);
  };
  await serveMcp(runtime, options).connect(serverSide);
  const client = new Client(
    { name: 'elicit-client', version: '1.0.0' },
    answer ? { capabilities: { elicitation: {} } } : {},
  );
  const asked: ElicitRequest[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      asked.push(request);
      return answer(request, extra.signal);
    });
  }
  await client.connect(clientSide);
  return { client, asked, sent, clientSide };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return check();
};

/** Whether the server withdrew its question: `notifications/cancelled` for its elicitation's id. */
function withdrew(sent: { message: JSONRPCMessage }[]): boolean {
  const asked = sent.find(({ message }) => 'method' in message && message.method === 'elicitation/create');
  const id = (asked?.message as { id?: RequestId } | undefined)?.id;
  return sent.some(
    ({ message }) =>
      'method' in message &&
      message.method === 'notifications/cancelled' &&
      (message.params as { requestId?: RequestId }).requestId === id,
  );
}

const errorOf = (result: unknown) =>
  (result as { structuredContent: { error: Record<string, unknown> } }).structuredContent.error;
const deleteNotes = { name: 'delete_file', arguments: { path: 'notes/todo.md', force: true } };

describe('serveMcp asks for approval by elicitation', () => {
  it('answers approval-pending, and asks nothing, when the client declared no elicitation', async () => {
    const { runtime, runs } = setUp();
    const { client } = await connect(runtime);
    const result = await client.callTool(deleteNotes);
    expect(result.isError).toBe(true);
    expect(errorOf(result).kind).toBe('approval-pending');
    // It names what would let the person decide, not run.resume, which an MCP client has not.
    expect(errorOf(result).message).toContain('did not declare elicitation');
    expect(errorOf(result).message).not.toContain('run.resume');
    expect(runs).toEqual([]);
    await client.close();
  });

  it('asks the person in words on the call’s own stream, and runs the tool once when they accept', async () => {
    const { runtime, runs } = setUp();
    const { client, asked, sent } = await connect(runtime, () => ({ action: 'accept', content: {} }));
    const result = await client.callTool(deleteNotes);
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'deleted notes/todo.md' }]);
    expect(runs).toEqual([{ path: 'notes/todo.md', approvalId: expect.stringMatching(/^apr_/) }]);
    expect(asked).toHaveLength(1);
    const { message, requestedSchema, mode } = asked[0]!.params as ElicitRequest['params'] & {
      requestedSchema: { properties: Record<string, unknown> };
    };
    // This client declared elicitation bare (`{}`): form is the default, and the mode goes unsaid.
    expect(mode).toBeUndefined();
    expect(message).toBe(
      [
        'Allow "Delete a file" (delete_file) to run?',
        'Deletes a file from the workspace.',
        'It can change or delete data.',
        '',
        'With:',
        '- path: notes/todo.md',
        '- force: true',
      ].join('\n'),
    );
    expect(Object.keys(requestedSchema.properties)).toEqual(['reason']);
    const call = sent.find(({ message }) => 'method' in message && message.method === 'elicitation/create');
    const callId = sent.find(({ message }) => 'result' in message && 'content' in (message.result as object))
      ?.message as { id: RequestId };
    expect(call?.relatedRequestId).toBe(callId.id);
    await client.close();
  });

  it('denies the call when the person declines, passing on their note, and never runs the tool', async () => {
    const { runtime, runs } = setUp();
    const { client } = await connect(runtime, () => ({ action: 'decline', content: { reason: 'keep it' } }));
    const result = await client.callTool(deleteNotes);
    expect(errorOf(result)).toMatchObject({ kind: 'approval-denied', details: { reason: 'keep it' } });
    expect(runs).toEqual([]);
    await client.close();
  });

  it('ends the call as cancelled when the person cancels, and never runs the tool', async () => {
    const { runtime, runs } = setUp();
    const { client } = await connect(runtime, () => ({ action: 'cancel' }));
    const result = await client.callTool(deleteNotes);
    expect(errorOf(result).kind).toBe('aborted');
    expect(runs).toEqual([]);
    await client.close();
  });

  it('denies an acceptance whose content does not fit the form', async () => {
    const { runtime, runs } = setUp();
    const { client } = await connect(runtime, () => ({ action: 'accept', content: { reason: 42 } }) as never);
    const result = await client.callTool(deleteNotes);
    expect(errorOf(result)).toMatchObject({
      kind: 'approval-denied',
      details: { reason: "the MCP client's answer did not fit the approval form" },
    });
    expect(runs).toEqual([]);
    await client.close();
  });

  it('denies the call when no answer comes within the tool’s timeout, and withdraws the question', async () => {
    const { runtime, runs } = setUp();
    const { client, sent } = await connect(runtime, () => new Promise<ElicitResult>(() => {}));
    const result = await client.callTool({ name: 'slow_to_approve', arguments: {} });
    expect(errorOf(result)).toMatchObject({
      kind: 'approval-denied',
      details: { reason: 'no answer came from the MCP client within 100 ms' },
    });
    expect(withdrew(sent)).toBe(true);
    expect(runs).toEqual([]);
    await client.close();
  });

  it('waits 10 minutes for an answer when the tool has no timeoutMs, then denies the call and withdraws the question', async () => {
    vi.useFakeTimers();
    try {
      const runs: string[] = [];
      const untimed = defineTool({
        name: 'untimed',
        description: 'Needs approval, and has no timeout.',
        inputSchema: z.object({}),
        needsApproval: true,
        execute: () => {
          runs.push('ran');
          return 'ran';
        },
      });
      const runtime = createRuntime({ tools: [untimed], approval: createMemoryApprovalPort() });
      const opened = deferred<number>();
      const { client, sent } = await connect(runtime, () => {
        opened.resolve(Date.now());
        return new Promise<ElicitResult>(() => {});
      });
      let settled = false;
      // The client's own request timeout (60 s by default) must not end the call first.
      const call = client
        .callTool({ name: 'untimed', arguments: {} }, undefined, { timeout: 60 * 60_000 })
        .finally(() => {
          settled = true;
        });
      const askedAt = await opened.promise;
      await vi.advanceTimersByTimeAsync(askedAt + 600_000 - 1 - Date.now());
      expect(settled).toBe(false);
      expect(withdrew(sent)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(errorOf(await call)).toMatchObject({
        kind: 'approval-denied',
        details: { reason: 'no answer came from the MCP client within 600000 ms' },
      });
      expect(withdrew(sent)).toBe(true);
      expect(runs).toEqual([]);
      await client.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks separately for a twin call with the same arguments: one acceptance approves one call', async () => {
    const { runtime, runs } = setUp();
    let n = 0;
    const { client, asked } = await connect(runtime, async () =>
      ++n === 1 ? { action: 'accept' } : { action: 'decline' },
    );
    const results = await Promise.all([client.callTool(deleteNotes), client.callTool(deleteNotes)]);
    expect(asked).toHaveLength(2);
    expect(results.filter((result) => !result.isError)).toHaveLength(1);
    expect(results.filter((result) => result.isError).map((result) => errorOf(result).kind)).toEqual([
      'approval-denied',
    ]);
    expect(runs).toHaveLength(1);
    await client.close();
  });

  it('runs nothing more when the client replays its acceptance, and asks again for the next call', async () => {
    const { runtime, runs } = setUp();
    const { client, asked, clientSide } = await connect(runtime, () => ({ action: 'accept' }));
    const replies: JSONRPCMessage[] = [];
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => {
      if ('result' in message && 'action' in message.result) replies.push(message);
      return send(message, options);
    };
    await client.callTool(deleteNotes);
    await send(replies[0]!);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toHaveLength(1);
    await client.callTool(deleteNotes);
    expect(asked).toHaveLength(2);
    expect(runs).toHaveLength(2);
    expect(runs[0]!.approvalId).not.toBe(runs[1]!.approvalId);
    await client.close();
  });

  it('withdraws the question when the client cancels the call; a late acceptance runs nothing', async () => {
    const { runtime, runs } = setUp();
    const opened = deferred<void>();
    const late = deferred<ElicitResult>();
    const { client, sent } = await connect(runtime, () => {
      opened.resolve();
      return late.promise;
    });
    const controller = new AbortController();
    const call = client.callTool(deleteNotes, undefined, { signal: controller.signal });
    await opened.promise;
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await until(() => withdrew(sent))).toBe(true);
    late.resolve({ action: 'accept' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toEqual([]);
    await client.close();
  });

  it("does not let another session's client answer a question it was not asked", async () => {
    const { runtime, runs } = setUp();
    const opened = deferred<RequestId>();
    let decline: (() => void) | undefined;
    const a = await connect(runtime, (_request) => {
      return new Promise<ElicitResult>((resolve) => {
        decline = () => resolve({ action: 'decline' });
        opened.resolve(0);
      });
    });
    const b = await connect(runtime);
    const call = a.client.callTool(deleteNotes);
    await opened.promise;
    // Request ids belong to a session (its own server): B's answer under A's question's id reaches
    // only B's server, which asked nothing.
    const asked = a.sent.find(
      ({ message }) => 'method' in message && message.method === 'elicitation/create',
    );
    const id = (asked!.message as { id: RequestId }).id;
    await b.clientSide.send({ jsonrpc: '2.0', id, result: { action: 'accept' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toEqual([]);
    decline!();
    expect(errorOf(await call).kind).toBe('approval-denied');
    expect(runs).toEqual([]);
    await a.client.close();
    await b.client.close();
  });

  it('lets the runtime’s approval port decide first, asking the person only when it answers pending', async () => {
    const { runtime, runs } = setUp(createMemoryApprovalPort({ decide: () => ({ approved: true }) }));
    const { client, asked } = await connect(runtime, () => ({ action: 'decline' }));
    const result = await client.callTool(deleteNotes);
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual([]);
    expect(runs).toHaveLength(1);
    await client.close();
  });

  it('asks the person when the trifecta asks for a send, as for a tool that needs approval', async () => {
    const sent: string[] = [];
    const runtime = createRuntime({
      tools: [
        defineTool({
          name: 'read_odd',
          description: 'Reads something of unknown origin.',
          inputSchema: z.object({}),
          reads: () => 'unknown',
          execute: () => '?',
        }),
        defineTool({
          name: 'post',
          description: 'Posts a message.',
          inputSchema: z.object({ text: z.string() }),
          effect: 'send',
          execute: ({ text }) => {
            sent.push(text);
            return 'posted';
          },
        }),
      ],
      approval: createMemoryApprovalPort(),
      security: { trifecta: 'approve' },
    });
    const identify = () => ({ tenant: 'acme', principal: 'ana', conversationId: 'c1' });
    const { client, asked } = await connect(runtime, () => ({ action: 'accept' }), { identify });
    expect((await client.callTool({ name: 'post', arguments: { text: 'before' } })).isError).toBeFalsy();
    expect(asked).toEqual([]);
    await client.callTool({ name: 'read_odd', arguments: {} });
    const result = await client.callTool({ name: 'post', arguments: { text: 'after' } });
    expect(result.isError).toBeFalsy();
    expect(asked.map((request) => request.params.message.split('\n')[2])).toEqual([
      'It can send data out of this app.',
    ]);
    expect(sent).toEqual(['before', 'after']);
    await client.close();
  });

  it('answers approval-pending at once, and asks nothing, over stateless HTTP, where no answer could reach the call', async () => {
    const { runtime, runs } = setUp();
    const started = Date.now();
    // Stateless, as the SDK asks: a server and a transport per request, so the client's answer
    // to a question would reach a server that never asked it.
    const questions: unknown[] = [];
    for (const enableJsonResponse of [false, true]) {
      const client = new Client(
        { name: 'stateless', version: '1.0.0' },
        { capabilities: { elicitation: {} } },
      );
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        questions.push(request);
        return { action: 'accept', content: {} };
      });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
          fetch: async (input, init) => {
            const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse });
            await serveMcp(runtime).connect(transport);
            return transport.handleRequest(new Request(input, init));
          },
        }),
      );
      const result = await client.callTool(deleteNotes);
      expect(errorOf(result).kind).toBe('approval-pending');
      await client.close();
    }
    expect(questions).toEqual([]);
    expect(runs).toEqual([]);
    // Well within the tool's 2 s timeout, which an unanswerable question would wait out.
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
