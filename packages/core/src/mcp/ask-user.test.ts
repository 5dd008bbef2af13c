import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  ElicitationCompleteNotificationSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { AskRequest, AskSchema } from '../ask/ask.js';
import { ToolctxError } from '../errors.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcp } from './serve-mcp.js';

// A tool's ctx.ask over MCP 2025-11-25, through serveMcp in process: the official SDK client
// answers `elicitation/create` as a person would, or as a hostile client might.

const transfer: AskSchema = {
  type: 'object',
  properties: {
    from: { type: 'string', title: 'Account', enum: ['checking', 'savings'] },
    amount: { type: 'integer', minimum: 1, maximum: 1000 },
    note: { type: 'string', maxLength: 50 },
  },
  required: ['from', 'amount'],
};

/** What each tool's ask gave it: the answer, or the kind and message of what it threw. */
type Seen = { answer: unknown } | { threw: string; message: string };

function setUp() {
  const seen: Seen[] = [];
  const asking = (name: string, request: AskRequest) =>
    defineTool({
      name,
      description: `Asks, and answers what it was told (${name}).`,
      inputSchema: z.object({}),
      async execute(_args, ctx) {
        try {
          const answer = await ctx.ask(request as never);
          seen.push({ answer });
          return { answer };
        } catch (thrown) {
          const info = thrown instanceof ToolctxError ? thrown.info : { kind: 'foreign', message: '' };
          seen.push({ threw: info.kind, message: info.message });
          throw thrown;
        }
      },
    });
  const tools = [
    asking('ask_form', { message: 'Move how much, from where?', schema: transfer }),
    asking('ask_page', { message: 'Connect your bank.', url: 'https://bank.example.com/connect' }),
    asking('ask_briefly', { message: 'Quick: which account?', schema: transfer, windowMs: 100 }),
    defineTool({
      name: 'page_then_form',
      description: 'Sends the person to a page, then asks a question.',
      inputSchema: z.object({}),
      async execute(_args, ctx) {
        await ctx.ask({ message: 'Connect your bank.', url: 'https://bank.example.com/connect' });
        return ctx.ask({ message: 'Move how much, from where?', schema: transfer });
      },
    }),
    defineTool({
      name: 'ask_or_guess',
      description: 'Asks, and guesses when no one can be asked.',
      inputSchema: z.object({}),
      async execute(_args, ctx) {
        try {
          return await ctx.ask({ message: 'Which account?', schema: transfer });
        } catch (thrown) {
          if (thrown instanceof ToolctxError && thrown.info.kind === 'unsupported')
            return { guessed: 'checking' };
          throw thrown;
        }
      },
    }),
  ];
  return { runtime: createRuntime({ tools }), seen };
}

type Answer = (request: ElicitRequest, signal: AbortSignal) => ElicitResult | Promise<ElicitResult>;

/**
 * A client declaring `capabilities`, answering each question with `answer`; `rewrite` changes
 * what it sends, as a client that does not use the SDK could.
 */
async function connect(
  capabilities: ClientOptions['capabilities'],
  answer?: Answer,
  rewrite?: (message: JSONRPCMessage) => JSONRPCMessage,
) {
  const { runtime, seen } = setUp();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: { message: JSONRPCMessage; relatedRequestId?: RequestId }[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    sent.push({ message, relatedRequestId: options?.relatedRequestId });
    return send(message, options);
  };
  await serveMcp(runtime).connect(serverSide);
  if (rewrite) {
    const fromClient = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => fromClient(rewrite(message), options);
  }
  const client = new Client({ name: 'asked', version: '1.0.0' }, { capabilities });
  const asked: ElicitRequest[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      asked.push(request);
      return answer(request, extra.signal);
    });
  }
  // The server withdrew its question: `notifications/cancelled` for the question's id. (The SDK
  // client's own handler signal cannot tell: it ignores a cancel of request id 0, the first.)
  const withdrawn = () =>
    sent.filter(({ message }) => {
      if (!('method' in message) || message.method !== 'notifications/cancelled') return false;
      const id = (message.params as { requestId: RequestId }).requestId;
      return sent.some(
        (question) =>
          'method' in question.message &&
          question.message.method === 'elicitation/create' &&
          (question.message as { id: RequestId }).id === id,
      );
    }).length;
  const completed: string[] = [];
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    completed.push(notification.params.elicitationId);
  });
  await client.connect(clientSide);
  return { client, asked, sent, seen, withdrawn, completed };
}

const form = { elicitation: { form: {} } };
const formAndPage = { elicitation: { form: {}, url: {} } };
const call = (client: Client, name: string) => client.callTool({ name, arguments: {} });
const errorOf = (result: unknown) =>
  (result as { structuredContent: { error: { kind: string; message: string } } }).structuredContent.error;

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe("serveMcp carries a tool's ask as elicitation/create", () => {
  it("sends a form ask on the call's own stream, in form mode with the ask's message and schema, and gives the tool the values", async () => {
    const { client, asked, sent, seen } = await connect(form, () => ({
      action: 'accept',
      content: { from: 'savings', amount: 20 },
    }));
    const result = await call(client, 'ask_form');
    expect(result.isError).toBeFalsy();
    expect(seen).toEqual([{ answer: { action: 'accept', values: { from: 'savings', amount: 20 } } }]);
    expect(asked.map((request) => request.params)).toEqual([
      { mode: 'form', message: 'Move how much, from where?', requestedSchema: transfer },
    ]);
    const question = sent.find(
      ({ message }) => 'method' in message && message.method === 'elicitation/create',
    );
    const answered = sent.find(({ message }) => 'result' in message && 'content' in message.result)!;
    expect(question?.relatedRequestId).toBe((answered.message as { id: RequestId }).id);
    await client.close();
  });

  it('leaves the mode out for a client that declared elicitation bare: form is the default', async () => {
    const { client, asked, seen } = await connect({ elicitation: {} }, () => ({
      action: 'accept',
      content: { from: 'checking', amount: 1 },
    }));
    await call(client, 'ask_form');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params).not.toHaveProperty('mode');
    expect(asked[0]!.params).toMatchObject({ requestedSchema: transfer });
    expect(seen).toEqual([{ answer: { action: 'accept', values: { from: 'checking', amount: 1 } } }]);
    await client.close();
  });

  it('gives the tool decline and cancel as they are, whatever content came with them', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { client, seen } = await connect(form, () => ({ action, content: { from: 'x' } }));
      const result = await call(client, 'ask_form');
      expect(result.structuredContent).toEqual({ answer: { action } });
      expect(seen).toEqual([{ answer: { action } }]);
      await client.close();
    }
  });

  it('lets the tool see invalid-argument, naming each problem, for values outside the schema or an answer that is not one', async () => {
    const { client, seen } = await connect(form, () => ({
      action: 'accept',
      content: { from: 'offshore', amount: 1.5, extra: true },
    }));
    const result = await call(client, 'ask_form');
    expect(errorOf(result).kind).toBe('invalid-argument');
    expect(seen).toHaveLength(1);
    const message = (seen[0] as { message: string }).message;
    for (const problem of [
      '"from" must be one of',
      '"amount" must be a whole number',
      '"extra" is not a field',
    ])
      expect(message).toContain(problem);
    await client.close();
    // A value that is no form value at all (an object): the answer is not an elicitation result.
    const odd = await connect(
      form,
      () => ({ action: 'accept', content: { from: 'savings', amount: 5 } }),
      (message) =>
        'result' in message && 'action' in message.result
          ? { ...message, result: { action: 'accept', content: { from: { nested: 1 } } } }
          : message,
    );
    expect(errorOf(await call(odd.client, 'ask_form'))).toMatchObject({
      kind: 'invalid-argument',
      message: expect.stringContaining('is not an elicitation result'),
    });
    await odd.client.close();
  });

  it('sends a URL ask in url mode under the ask’s id, and once the person accepted, its completion before the result', async () => {
    const { client, asked, sent, seen, completed } = await connect(formAndPage, () => ({ action: 'accept' }));
    const result = await call(client, 'ask_page');
    expect(result.structuredContent).toEqual({ answer: { action: 'accept' } });
    expect(seen).toEqual([{ answer: { action: 'accept' } }]);
    const params = asked[0]!.params as { elicitationId: string };
    expect(params).toEqual({
      mode: 'url',
      message: 'Connect your bank.',
      url: 'https://bank.example.com/connect',
      elicitationId: expect.stringMatching(/^ask_/),
    });
    expect(completed).toEqual([params.elicitationId]);
    const methods = sent.map(({ message, relatedRequestId }) => [
      'method' in message ? message.method : 'result',
      relatedRequestId,
    ]);
    const callId = (sent.at(-1)!.message as { id: RequestId }).id;
    expect(methods.slice(-3)).toEqual([
      ['elicitation/create', callId],
      ['notifications/elicitation/complete', callId],
      ['result', undefined],
    ]);
    await client.close();
    // Declined, the page was never visited: nothing to complete.
    const declined = await connect(formAndPage, () => ({ action: 'decline' }));
    await call(declined.client, 'ask_page');
    expect(declined.completed).toEqual([]);
    await declined.client.close();
  });

  it('completes an accepted page as soon as the tool asks again, before the next question', async () => {
    const { client, sent, completed } = await connect(formAndPage, (request) =>
      request.params.mode === 'url'
        ? { action: 'accept' }
        : { action: 'accept', content: { from: 'checking', amount: 2 } },
    );
    const result = await call(client, 'page_then_form');
    expect(result.structuredContent).toEqual({ action: 'accept', values: { from: 'checking', amount: 2 } });
    const methods = sent.map(({ message }) => ('method' in message ? message.method : 'result'));
    expect(methods.slice(-4)).toEqual([
      'elicitation/create',
      'notifications/elicitation/complete',
      'elicitation/create',
      'result',
    ]);
    expect(completed).toHaveLength(1);
    await client.close();
  });

  it('fails the ask as unsupported, naming what to declare, for a client without elicitation, or without URL mode for a page', async () => {
    const bare = await connect(undefined);
    const result = await call(bare.client, 'ask_form');
    expect(result.isError).toBe(true);
    expect(errorOf(result)).toMatchObject({
      kind: 'unsupported',
      message:
        '"ask_form" asked its user a question, but this MCP client did not declare elicitation: a client that can show its user a form declares capabilities.elicitation (or elicitation.form) when it initializes.',
    });
    expect(bare.seen).toEqual([{ threw: 'unsupported', message: errorOf(result).message }]);
    // The tool may catch it and go on.
    expect((await call(bare.client, 'ask_or_guess')).structuredContent).toEqual({ guessed: 'checking' });
    await bare.client.close();
    const formOnly = await connect(form, () => ({ action: 'accept' }));
    const page = await call(formOnly.client, 'ask_page');
    expect(errorOf(page)).toMatchObject({
      kind: 'unsupported',
      message: expect.stringContaining('did not declare URL elicitation'),
    });
    expect(errorOf(page).message).toContain('capabilities.elicitation.url');
    expect(formOnly.asked).toEqual([]);
    await formOnly.client.close();
  });

  it('fails the ask as unsupported over stateless HTTP, where no session remembers what the client declared', async () => {
    const { runtime } = setUp();
    const client = new Client({ name: 'stateless', version: '1.0.0' }, { capabilities: form });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: {} }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
        fetch: async (input, init) => {
          const transport = new WebStandardStreamableHTTPServerTransport();
          await serveMcp(runtime).connect(transport);
          return transport.handleRequest(new Request(input, init));
        },
      }),
    );
    expect(errorOf(await call(client, 'ask_form'))).toMatchObject({
      kind: 'unsupported',
      message: expect.stringMatching(
        /serve MCP 2025-11-25 with sessions, or give the 2026-07-28 door a requestStateKey/,
      ),
    });
    await client.close();
  });

  it('withdraws the question when the client cancels the call: the call ends at once, and a late answer reaches nothing', async () => {
    const opened = deferred<void>();
    const late = deferred<ElicitResult>();
    const { client, seen, withdrawn } = await connect(form, () => {
      opened.resolve();
      return late.promise;
    });
    const controller = new AbortController();
    const cancelled = client.callTool({ name: 'ask_form', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await opened.promise;
    const started = Date.now();
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    // The server's `notifications/cancelled` for the question fired the client handler's signal.
    await expect.poll(withdrawn).toBe(1);
    await expect.poll(() => seen).toEqual([{ threw: 'aborted', message: expect.any(String) }]);
    expect(Date.now() - started).toBeLessThan(1_000);
    late.resolve({ action: 'accept', content: { from: 'savings', amount: 5 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toHaveLength(1);
    await client.close();
  });

  it('answers the tool cancel when the ask’s window passes, and withdraws the question', async () => {
    const { client, seen, withdrawn } = await connect(form, () => new Promise<ElicitResult>(() => {}));
    const result = await call(client, 'ask_briefly');
    expect(result.structuredContent).toEqual({ answer: { action: 'cancel' } });
    expect(seen).toEqual([{ answer: { action: 'cancel' } }]);
    expect(withdrawn()).toBe(1);
    await client.close();
  });

  it("waits out the ask's whole window, not the SDK's 60 s request timeout", async () => {
    vi.useFakeTimers();
    try {
      const opened = deferred<void>();
      const answer = deferred<ElicitResult>();
      const { client, seen, withdrawn } = await connect(form, () => {
        opened.resolve();
        return answer.promise;
      });
      const result = client.callTool({ name: 'ask_form', arguments: {} }, undefined, {
        timeout: 60 * 60_000,
      });
      await opened.promise;
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      expect(withdrawn()).toBe(0);
      answer.resolve({ action: 'accept', content: { from: 'savings', amount: 9 } });
      expect((await result).structuredContent).toEqual({
        answer: { action: 'accept', values: { from: 'savings', amount: 9 } },
      });
      expect(seen).toHaveLength(1);
      await client.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('serveMcp refuses a hostile answer to an ask, bounded', () => {
  it('refuses a 1 MB value as invalid-argument, without echoing it', async () => {
    const huge = 'x'.repeat(1_000_000);
    const { client, seen } = await connect(form, () => ({
      action: 'accept',
      content: { from: 'savings', amount: 5, note: huge },
    }));
    const result = await call(client, 'ask_form');
    const error = errorOf(result);
    expect(error.kind).toBe('invalid-argument');
    expect(error.message).toContain('"note" must be at most 50 characters');
    expect(JSON.stringify(result).length).toBeLessThan(2_000);
    expect(seen).toEqual([{ threw: 'invalid-argument', message: error.message }]);
    await client.close();
  });

  it('refuses 10,000 extra keys as invalid-argument, naming a few of them, quickly', async () => {
    const content: Record<string, string> = { from: 'savings', amount: 5 } as never;
    for (let i = 0; i < 10_000; i++) content[`k${i}`] = 'v';
    const { client, seen } = await connect(form, () => ({ action: 'accept', content }));
    const started = performance.now();
    const result = await call(client, 'ask_form');
    const took = performance.now() - started;
    const error = errorOf(result) as { kind: string; message: string; details: { problems: string[] } };
    expect(error.kind).toBe('invalid-argument');
    expect(error.message).toContain('"k0" is not a field of the form');
    expect(error.message).toContain('(+9995 more)');
    expect(error.details.problems).toHaveLength(20);
    expect(JSON.stringify(result).length).toBeLessThan(4_000);
    expect(seen).toHaveLength(1);
    // Measured 150 to 200 ms here, the SDK parsing the answer included; the bound is what a refusal
    // may cost on a loaded machine, not a benchmark.
    expect(took).toBeLessThan(2_000);
    await client.close();
  });
});

describe("serveMcp carries a credential's sign-in as URL elicitation", () => {
  const AUTH_URL = 'https://auth.example.com/authorize?state=s1';
  async function signIn(capabilities: ClientOptions['capabilities'], answer: ElicitResult['action']) {
    let granted = false;
    const hooked: string[] = [];
    const calendar = defineTool({
      name: 'calendar',
      description: 'Reads the calendar.',
      inputSchema: z.object({}),
      needs: { credential: 'calendar' },
      execute: (_args, ctx) => `read with ${ctx.credential?.value.length} chars`,
    });
    const runtime = createRuntime({
      tools: [calendar],
      credentials: {
        resolve: async ({ credential }) =>
          granted
            ? { kind: 'issued', credential: { credential, value: 'token-123456' } }
            : { kind: 'authorization-required', authorizationUrl: AUTH_URL },
      },
      onAuthorizationUrl: (_id, url) => void hooked.push(url),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await serveMcp(runtime).connect(serverSide);
    const client = new Client({ name: 'asked', version: '1.0.0' }, { capabilities });
    const asked: ElicitRequest['params'][] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      granted = answer === 'accept';
      return { action: answer };
    });
    await client.connect(clientSide);
    const result = await call(client, 'calendar');
    await client.close();
    return { result, asked, hooked };
  }

  it('sends the provider’s link in url mode; once the person finished there, the tool runs', async () => {
    const { result, asked, hooked } = await signIn(formAndPage, 'accept');
    expect(asked).toEqual([
      {
        mode: 'url',
        message: expect.stringContaining('calendar'),
        url: AUTH_URL,
        elicitationId: expect.any(String),
      },
    ]);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'read with 12 chars' }] });
    expect(hooked).toEqual([]);
  });

  it('declined, the call fails credential-failed; a client without URL mode never sees the link', async () => {
    const declined = await signIn(formAndPage, 'decline');
    expect(errorOf(declined.result)).toMatchObject({ kind: 'credential-failed' });
    const formOnly = await signIn(form, 'accept');
    expect(formOnly.asked).toEqual([]);
    expect(errorOf(formOnly.result)).toMatchObject({ kind: 'authorization-required' });
    expect(JSON.stringify(formOnly.result)).not.toContain('state=s1');
    expect(formOnly.hooked).toEqual([AUTH_URL]);
  });
});
