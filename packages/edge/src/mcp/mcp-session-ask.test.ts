import { SELF } from 'cloudflare:test';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitationCompleteNotificationSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

// A tool's ctx.ask through McpSession, the Durable Object per MCP session: the test Worker's
// /mcp-ask serves the example's schedule_meeting (a form ask) and connect_calendar (a URL ask),
// and remember_ask, whose ask's outcome ask_outcome tells.
const at = 'http://toolctx.test/mcp-ask';

type Answer = (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

/** A client of a new session, declaring `capabilities` and answering each question with `answer`. */
async function connect(capabilities: ClientOptions['capabilities'], answer?: Answer) {
  const client = new Client({ name: 'asked', version: '1.0.0' }, { capabilities });
  const asked: ElicitRequest[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return answer(request);
    });
  }
  // What reached the client, in order: questions' completions, and the calls' results.
  const order: string[] = [];
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    order.push(`complete ${notification.params.elicitationId}`);
  });
  const transport = new StreamableHTTPClientTransport(new URL(at), {
    fetch: (input, init) => SELF.fetch(new Request(input, init)),
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    order.push(`result ${name}`);
    return result;
  };
  const outcome = async (id: string) =>
    (
      (await client.callTool({ name: 'ask_outcome', arguments: { id } })).structuredContent as {
        outcome: unknown;
      }
    ).outcome;
  return { client, asked, order, call, outcome };
}

const form = { elicitation: { form: {} } };
const errorOf = (result: unknown) =>
  (result as { structuredContent: { error: { kind: string; message: string; details?: unknown } } })
    .structuredContent.error;

describe("McpSession carries a tool's ask as elicitation/create", () => {
  it("asks schedule_meeting's form on the call's stream and gives the tool the values", async () => {
    const { client, asked, call } = await connect(form, () => ({
      action: 'accept',
      content: { day: 'Tuesday', minutes: 45 },
    }));
    const result = await call('schedule_meeting', { topic: 'budget' });
    expect(result.structuredContent).toEqual({
      scheduled: true,
      topic: 'budget',
      day: 'Tuesday',
      minutes: 45,
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params).toMatchObject({
      mode: 'form',
      message: 'When should we meet about “budget”?',
      requestedSchema: { type: 'object', required: ['day', 'minutes'] },
    });
    await client.close();
  });

  it('gives the tool decline and cancel as they are', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { client, call } = await connect(form, () => ({ action }));
      expect((await call('schedule_meeting', { topic: 'lunch' })).structuredContent).toEqual({
        scheduled: false,
        answer: action,
      });
      await client.close();
    }
  });

  it('lets the tool see invalid-argument for values outside the schema', async () => {
    const { client, call, outcome } = await connect(form, () => ({
      action: 'accept',
      content: { day: 'Sunday', extra: 1 },
    }));
    const result = await call('remember_ask', { id: 'bad-values' });
    expect(errorOf(result).kind).toBe('invalid-argument');
    expect(await outcome('bad-values')).toEqual({
      threw: 'invalid-argument',
      message: expect.stringContaining('"day" must be one of "Monday", "Friday"'),
    });
    expect(errorOf(result).message).toContain('"extra" is not a field of the form');
    await client.close();
  });

  it("sends connect_calendar's page in URL mode, and its completion before the call's result", async () => {
    const { client, asked, order, call } = await connect({ elicitation: { form: {}, url: {} } }, () => ({
      action: 'accept',
    }));
    const result = await call('connect_calendar');
    expect(result.structuredContent).toEqual({ connected: true });
    const params = asked[0]!.params as { elicitationId: string };
    expect(params).toEqual({
      mode: 'url',
      message: 'Connect your calendar, then come back and say you are done.',
      url: 'https://calendar.example.com/connect',
      elicitationId: expect.stringMatching(/^ask_/),
    });
    expect(order).toEqual([`complete ${params.elicitationId}`, 'result connect_calendar']);
    await client.close();
  });

  it('fails the ask as unsupported, naming the capability, for a client without elicitation or without URL mode', async () => {
    const none = await connect(undefined);
    const result = await none.call('schedule_meeting', { topic: 'x' });
    expect(result.isError).toBe(true);
    expect(errorOf(result)).toMatchObject({
      kind: 'unsupported',
      message: expect.stringContaining(
        'did not declare elicitation: a client that can show its user a form declares capabilities.elicitation',
      ),
    });
    await none.client.close();
    const formOnly = await connect(form, () => ({ action: 'accept' }));
    const page = await formOnly.call('connect_calendar');
    expect(errorOf(page)).toMatchObject({
      kind: 'unsupported',
      message: expect.stringContaining('declares capabilities.elicitation.url'),
    });
    expect(formOnly.asked).toEqual([]);
    await formOnly.client.close();
  });

  it('ends the call when the client cancels it while the question is open, and takes no late answer', async () => {
    let opened: (() => void) | undefined;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const late: { answer?: (result: ElicitResult) => void } = {};
    const { client, outcome } = await connect(
      form,
      () =>
        new Promise<ElicitResult>((resolve) => {
          late.answer = resolve;
          opened!();
        }),
    );
    const controller = new AbortController();
    const call = client.callTool({ name: 'remember_ask', arguments: { id: 'withdrawn' } }, undefined, {
      signal: controller.signal,
    });
    await open;
    controller.abort();
    await expect(call).rejects.toThrow();
    // The cancel travels in a POST of its own; the ask rejects as soon as it arrives.
    await expect.poll(() => outcome('withdrawn')).toMatchObject({ threw: 'aborted' });
    late.answer!({ action: 'accept', content: { day: 'Monday' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await outcome('withdrawn')).toMatchObject({ threw: 'aborted' });
    await client.close();
  });
});

describe('McpSession refuses a hostile answer to an ask, bounded', () => {
  it('refuses a 1 MB value (inside the door’s 1 MiB body bound) as invalid-argument, without echoing it', async () => {
    const { client, call, outcome } = await connect(form, () => ({
      action: 'accept',
      content: { day: 'Monday', note: 'x'.repeat(1_000_000) },
    }));
    const result = await call('remember_ask', { id: 'huge' });
    expect(errorOf(result).kind).toBe('invalid-argument');
    expect(errorOf(result).message).toContain('"note" must be at most 50 characters');
    expect(JSON.stringify(result).length).toBeLessThan(2_000);
    expect(await outcome('huge')).toMatchObject({ threw: 'invalid-argument' });
    await client.close();
  });

  it('refuses 10,000 extra keys as invalid-argument, naming a few', async () => {
    const content: Record<string, string> = { day: 'Friday' };
    for (let i = 0; i < 10_000; i++) content[`k${i}`] = 'v';
    const { client, call, outcome } = await connect(form, () => ({ action: 'accept', content }));
    const result = await call('remember_ask', { id: 'wide' });
    const error = errorOf(result);
    expect(error.kind).toBe('invalid-argument');
    expect(error.message).toContain('(+9995 more)');
    expect((error.details as { problems: string[] }).problems).toHaveLength(20);
    expect(JSON.stringify(result).length).toBeLessThan(4_000);
    expect(await outcome('wide')).toMatchObject({ threw: 'invalid-argument' });
    await client.close();
  });
});
