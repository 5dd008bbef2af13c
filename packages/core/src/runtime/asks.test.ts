import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AskAnswer, AskRequest, AskSchema } from '../ask/ask.js';
import type { ToolExecutionContext } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createMemoryCallStore } from './call-book.js';
import { createRuntime } from './create-runtime.js';

const identity = { tenant: 'acme', principal: 'ana' };

const accountForm: AskSchema = {
  type: 'object',
  properties: {
    from: { type: 'string', title: 'Account', enum: ['checking', 'savings'] },
    amount: { type: 'integer', minimum: 1, maximum: 1000 },
    note: { type: 'string', maxLength: 50 },
    confirm: { type: 'boolean', default: false },
    tags: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'rent', title: 'Rent' },
          { const: 'food', title: 'Food' },
        ],
      },
    },
  },
  required: ['from', 'amount'],
};

/** Polls until `check` holds: a call reaches its ask after a few turns of the event loop. */
async function until<T>(check: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error('never happened');
}

function setup() {
  const events: ToolEvent[] = [];
  const asked: AskAnswer[] = [];
  const ask = (request: AskRequest, options: { timeoutMs?: number; idempotent?: boolean } = {}) =>
    defineTool({
      name: `ask_${Object.keys(options).join('_') || 'plain'}`,
      description: 'Asks, and answers what it was told.',
      inputSchema: z.object({}),
      ...options,
      async execute(_args, ctx) {
        const answer = await ctx.ask(request as never);
        asked.push(answer);
        return answer;
      },
    });
  const form = ask({ message: 'Which account?', schema: accountForm });
  const runtime = createRuntime({ tools: [form], sinks: [(event) => void events.push(event)] });
  return { events, asked, runtime, ask };
}

describe('ctx.ask: a tool asks its user mid-call', () => {
  it('waits input_required with its ask, and goes on with the checked values once answered', async () => {
    const { runtime, events } = setup();
    const run = runtime.startRun({ runId: 'run_ask', identity });
    const done = run.call({ tool: 'ask_plain', args: {}, toolCallId: 'c1' });
    const [open] = await until(() => (run.asks().length ? run.asks() : undefined));
    expect(open).toMatchObject({
      askId: expect.stringMatching(/^ask_/),
      toolCallId: 'c1',
      tool: 'ask_plain',
      message: 'Which account?',
      schema: accountForm,
    });
    expect(open!.expiresAt - open!.askedAt).toBe(600_000);
    expect(run.callStatus('c1')).toMatchObject({ status: 'input_required', ask: open });
    const answered = await run.answer(open!.askId, {
      action: 'accept',
      values: { from: 'savings', amount: 20, tags: ['rent'] },
    });
    expect(answered).toEqual({ taken: true, toolCallId: 'c1' });
    expect(await done).toMatchObject({
      ok: true,
      value: { action: 'accept', values: { from: 'savings', amount: 20, tags: ['rent'] } },
    });
    expect(run.asks()).toEqual([]);
    expect(run.callStatus('c1')).not.toHaveProperty('ask');
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type.startsWith('ask.') || type.startsWith('tool.'))).toEqual([
      'tool.started',
      'ask.requested',
      'ask.answered',
      'tool.finished',
    ]);
    // The log says what was answered, never the values.
    expect(events.find((event) => event.type === 'ask.answered')).toMatchObject({ callId: 'c1' });
    expect(events.find((event) => event.type === 'ask.answered')?.data).toEqual({
      tool: 'ask_plain',
      askId: open!.askId,
      action: 'accept',
    });
  });

  it('decline and cancel reach the tool as they are; an answer is taken once', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const { runtime } = setup();
      const run = runtime.startRun({ identity });
      const done = run.call({ tool: 'ask_plain', args: {} });
      const [open] = await until(() => (run.asks().length ? run.asks() : undefined));
      expect(await run.answer(open!.askId, { action })).toMatchObject({ taken: true });
      expect(await done).toMatchObject({ ok: true, value: { action } });
      // A replayed answer, or one to an ask that is not open, changes nothing.
      expect(
        await run.answer(open!.askId, { action: 'accept', values: { from: 'checking', amount: 1 } }),
      ).toMatchObject({
        taken: false,
        reason: 'unknown',
        error: { kind: 'not-found' },
      });
    }
  });

  it('refuses values outside the schema, naming each problem, and keeps the ask open for a corrected answer', async () => {
    const { runtime, asked } = setup();
    const run = runtime.startRun({ identity });
    const done = run.call({ tool: 'ask_plain', args: {} });
    const [open] = await until(() => (run.asks().length ? run.asks() : undefined));
    const bad = await run.answer(open!.askId, {
      action: 'accept',
      values: { from: 'offshore', amount: 1.5, note: 'x'.repeat(51), extra: 1, tags: ['rent', 'rent'] },
    });
    expect(bad).toMatchObject({ taken: false, reason: 'invalid', error: { kind: 'invalid-argument' } });
    const message = !bad.taken ? bad.error.message : '';
    for (const problem of [
      '"from" must be one of',
      '"amount" must be a whole number',
      '"note" must be at most 50',
      '"extra" is not a field',
    ]) {
      expect(message).toContain(problem);
    }
    expect(message).toContain('still open');
    expect(await run.answer(open!.askId, { action: 'accept', values: { from: 'savings' } })).toMatchObject({
      taken: false,
      error: { message: expect.stringContaining('"amount" is required') },
    });
    // A megabyte of text is refused as too long, not kept.
    const huge = await run.answer(open!.askId, {
      action: 'accept',
      values: { from: 'savings', amount: 5, note: 'x'.repeat(1_000_000) },
    });
    expect(huge).toMatchObject({ taken: false, reason: 'invalid' });
    expect(await run.answer(open!.askId, { action: 'maybe' } as never)).toMatchObject({
      taken: false,
      reason: 'invalid',
    });
    expect(asked).toEqual([]);
    expect(run.asks()).toHaveLength(1);
    expect(
      await run.answer(open!.askId, { action: 'accept', values: { from: 'savings', amount: 5 } }),
    ).toMatchObject({
      taken: true,
    });
    expect(await done).toMatchObject({ ok: true, value: { values: { from: 'savings', amount: 5 } } });
  });

  it('a form no door can show is an invalid-argument error to the tool, naming what is wrong', async () => {
    const wide: AskSchema = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 10_000 }, (_, i) => [`f${i}`, { type: 'string' as const }]),
      ),
    };
    const nested = {
      type: 'object',
      properties: { address: { type: 'object', properties: {} } },
    } as unknown as AskSchema;
    const { ask } = setup();
    const tools = [
      ask({ message: 'Too many', schema: wide }, { timeoutMs: 5_000 }),
      ask({ message: 'Nested', schema: nested }, { idempotent: false }),
      ask(
        { message: 'Plain http', url: 'http://example.com/sign-in' },
        { timeoutMs: 5_000, idempotent: false },
      ),
    ];
    const run = createRuntime({ tools }).startRun({ identity });
    const [tooMany, deep, plainHttp] = await run.callBatch(
      tools.map((tool) => ({ tool: tool.name, args: {} })),
    );
    expect(tooMany).toMatchObject({
      ok: false,
      error: { kind: 'invalid-argument', message: expect.stringContaining('10000 fields') },
    });
    expect(deep).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('field "address": "type" must be') },
    });
    expect(plainHttp).toMatchObject({ ok: false, error: { message: expect.stringContaining('https:') } });
  });

  it('a form too big to keep, or nested thousands deep, is an invalid-argument error to the tool', async () => {
    const options = Array.from({ length: 500 }, (_, i) => `option ${i} ${'x'.repeat(200)}`);
    const wide: AskSchema = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 100 }, (_, i) => [`f${i}`, { type: 'string' as const, enum: options }]),
      ),
    };
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { deep };
    const nested = {
      type: 'object',
      properties: { ok: { type: 'boolean', junk: deep } },
    } as unknown as AskSchema;
    const { ask } = setup();
    const tools = [
      ask({ message: 'Huge', schema: wide }, { timeoutMs: 5_000 }),
      ask({ message: 'Deep', schema: nested }, { idempotent: false }),
    ];
    const run = createRuntime({ tools }).startRun({ identity });
    const [huge, deepest] = await run.callBatch(tools.map((tool) => ({ tool: tool.name, args: {} })));
    expect(huge).toMatchObject({
      ok: false,
      error: { kind: 'invalid-argument', message: expect.stringContaining('a form is at most 65536') },
    });
    expect(deepest).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } });
    expect(run.asks()).toEqual([]);
  });

  it('a URL ask answers only whether the person finished', async () => {
    const { ask } = setup();
    const signIn = ask({ message: 'Sign in to your bank', url: 'https://bank.example/authorize?state=1' });
    const run = createRuntime({ tools: [signIn] }).startRun({ identity });
    const done = run.call({ tool: signIn.name, args: {} });
    const [open] = await until(() => (run.asks().length ? run.asks() : undefined));
    expect(open).toMatchObject({ url: 'https://bank.example/authorize?state=1' });
    expect(open).not.toHaveProperty('schema');
    expect(await run.answer(open!.askId, { action: 'accept', values: { password: 'x' } })).toMatchObject({
      taken: true,
    });
    expect(await done).toEqual({ ok: true, value: { action: 'accept' }, content: '{"action":"accept"}' });
  });

  it('the tool’s timeout does not run while it waits; its ask window does, and answers cancel', async () => {
    const { ask } = setup();
    const patient = ask({ message: 'Which account?', schema: accountForm }, { timeoutMs: 40 });
    const hurried = defineTool({
      name: 'hurried',
      description: 'Asks with a short window.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => ctx.ask({ message: 'Quick?', schema: accountForm, windowMs: 30 }),
    });
    const events: ToolEvent[] = [];
    const run = createRuntime({
      tools: [patient, hurried],
      sinks: [(event) => void events.push(event)],
    }).startRun({
      identity,
    });
    const done = run.call({ tool: patient.name, args: {} });
    const [open] = await until(() => (run.asks().length ? run.asks() : undefined));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(run.callStatus(open!.toolCallId)?.status).toBe('input_required');
    await run.answer(open!.askId, { action: 'decline' });
    expect(await done).toMatchObject({ ok: true, value: { action: 'decline' } });

    expect(await run.call({ tool: 'hurried', args: {}, toolCallId: 'h' })).toMatchObject({
      ok: true,
      value: { action: 'cancel' },
    });
    expect(run.asks()).toEqual([]);
    expect(events.filter((event) => event.callId === 'h' && event.type === 'ask.answered')).toMatchObject([
      { data: { action: 'cancel' } },
    ]);
  });

  it('ctx.signal still cancels a call that waits, and its ask is withdrawn', async () => {
    const { runtime } = setup();
    const run = runtime.startRun({ identity });
    const done = run.call({ tool: 'ask_plain', args: {}, toolCallId: 'w' });
    const [open] = await until(() => (run.asks().length ? run.asks() : undefined));
    expect(run.cancel('w', 'the person left')).toBe(true);
    expect(await done).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(run.asks()).toEqual([]);
    expect(run.callStatus('w')).toMatchObject({ status: 'cancelled' });
    expect(run.callStatus('w')).not.toHaveProperty('ask');
    expect(await run.answer(open!.askId, { action: 'decline' })).toMatchObject({
      taken: false,
      reason: 'unknown',
    });
  });

  it('a settled call cannot ask; a call may ask several things at once, each under its key, answered apart', async () => {
    let kept: ToolExecutionContext | undefined;
    const early = defineTool({
      name: 'early',
      description: 'Returns at once, keeping its context.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        kept = ctx;
        return 'done';
      },
    });
    const both = defineTool({
      name: 'both',
      description: 'Asks two things at once, with a short timeout of its own.',
      inputSchema: z.object({}),
      timeoutMs: 50,
      execute: async (_args, ctx) => {
        const [from, sure] = await Promise.all([
          ctx.ask({ key: 'from', message: 'From where?', schema: accountForm }),
          ctx.ask({ key: 'sure', message: 'Sure?', url: 'https://bank.example/confirm' }),
        ]);
        const third = await ctx.ask({ message: 'And then?', url: 'https://bank.example/next' });
        return [from.action, sure.action, third.action];
      },
    });
    const events: ToolEvent[] = [];
    const run = createRuntime({ tools: [early, both] }).startRun({
      identity,
      onEvent: (e) => void events.push(e),
    });
    await run.call({ tool: 'early', args: {} });
    await expect(kept!.ask({ message: 'Too late?', schema: accountForm })).rejects.toMatchObject({
      kind: 'call-settled',
    });
    const done = run.call({ tool: 'both', args: {}, toolCallId: 'b' });
    const open = await until(() => (run.asks().length === 2 ? run.asks() : undefined));
    expect(open.map((ask) => ask.key)).toEqual(['from', 'sure']);
    expect(run.callStatus('b')).toMatchObject({ status: 'input_required', ask: open[0], asks: open });
    // Both wait well past the tool's 50 ms timeout: it is held while any ask is open.
    await new Promise((resolve) => setTimeout(resolve, 120));
    await run.answer(open[1]!.askId, { action: 'decline' });
    expect(run.asks()).toEqual([open[0]]);
    expect(run.callStatus('b')).toMatchObject({ status: 'input_required', asks: [open[0]] });
    await new Promise((resolve) => setTimeout(resolve, 120));
    await run.answer(open[0]!.askId, { action: 'accept', values: { from: 'savings', amount: 5 } });
    // The next ask without a key of its own is the call's first such: key "0".
    const third = await until(() => run.asks()[0]);
    expect(third.key).toBe('0');
    await run.answer(third.askId, { action: 'cancel' });
    expect(await done).toMatchObject({ ok: true, value: ['accept', 'decline', 'cancel'] });
    expect(events.filter((event) => event.type === 'ask.answered')).toHaveLength(3);
  });

  it('asks under a key Object has too (constructor, toString) like any other, and refuses one key asked twice at once', async () => {
    const named = defineTool({
      name: 'named',
      description: 'Asks under keys that objects inherit.',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => {
        const first = await ctx.ask({ key: 'first', message: 'First?', url: 'https://example.com/1' });
        const second = await ctx.ask({
          key: 'constructor',
          message: 'Second?',
          url: 'https://example.com/2',
        });
        const third = await ctx.ask({ key: 'toString', message: 'Third?', url: 'https://example.com/3' });
        return [first.action, second.action, third.action];
      },
    });
    const twice = defineTool({
      name: 'twice_at_once',
      description: 'Asks one key twice at once.',
      inputSchema: z.object({}),
      execute: (_args, ctx) =>
        Promise.all([
          ctx.ask({ key: 'same', message: 'One?', url: 'https://example.com/1' }),
          ctx.ask({ key: 'same', message: 'Two?', url: 'https://example.com/2' }),
        ]),
    });
    const run = createRuntime({ tools: [named, twice] }).startRun({ identity });
    const done = run.call({ tool: 'named', args: {} });
    for (const action of ['accept', 'decline', 'cancel'] as const) {
      const open = await until(() => run.asks()[0]);
      await run.answer(open.askId, { action });
    }
    expect(await done).toMatchObject({ ok: true, value: ['accept', 'decline', 'cancel'] });
    const both = run.call({ tool: 'twice_at_once', args: {}, toolCallId: 'tw' });
    expect(await both).toMatchObject({
      ok: false,
      error: { kind: 'conflict', message: expect.stringContaining('give each ask of a call its own key') },
    });
    expect(run.asks()).toEqual([]);
  });

  it('refuses a key that is not 1 to 64 of letters, digits, _ . -, starting with a letter or _', async () => {
    const { ask } = setup();
    for (const key of ['0', 'credential:x', '', 'a'.repeat(65), 'with space']) {
      const tool = ask({ key, message: 'Which?', schema: accountForm });
      const result = await createRuntime({ tools: [tool] })
        .startRun({ identity })
        .call({ tool: tool.name, args: {} });
      expect(result, key).toMatchObject({
        ok: false,
        error: { kind: 'invalid-argument', message: expect.stringContaining('"key" must be 1 to 64') },
      });
    }
  });

  it('outside a run a call asks through the door’s askUser, and its answer is checked; without one it is unsupported', async () => {
    const { runtime } = setup();
    expect(await runtime.callOnce({ tool: 'ask_plain', args: {}, identity })).toMatchObject({
      ok: false,
      error: { kind: 'unsupported', message: expect.stringContaining('no one to ask') },
    });
    const seen: unknown[] = [];
    const good = await runtime.callOnce({
      tool: 'ask_plain',
      args: {},
      askUser: async (ask) => {
        seen.push(ask);
        return { action: 'accept', values: { from: 'checking', amount: 3 } };
      },
    });
    expect(good).toMatchObject({ ok: true, value: { values: { from: 'checking', amount: 3 } } });
    expect(seen).toMatchObject([
      { message: 'Which account?', schema: accountForm, askId: expect.stringMatching(/^ask_/) },
    ]);
    const bad = await runtime.callOnce({
      tool: 'ask_plain',
      args: {},
      askUser: async () => ({ action: 'accept', values: { from: 'nowhere' } }),
    });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } });
  });

  it('a run with no person to ask (canAsk: false) fails an ask at once, as unsupported, which the tool can catch', async () => {
    const careful = defineTool({
      name: 'careful',
      description: 'Asks, and goes on without an answer when nobody can give one.',
      inputSchema: z.object({}),
      async execute(_args, ctx) {
        try {
          return await ctx.ask({ message: 'Which account?', schema: accountForm });
        } catch (error) {
          return { fallback: (error as { kind?: string }).kind };
        }
      },
    });
    const run = createRuntime({ tools: [careful] }).startRun({ identity, canAsk: false });
    expect(await run.call({ tool: 'careful', args: {} })).toMatchObject({
      ok: true,
      value: { fallback: 'unsupported' },
    });
    expect(run.asks()).toEqual([]);
  });

  it('after a restart the ask is still open under its id; the call run again gets the answers it had without asking twice', async () => {
    const runs: string[] = [];
    const twice = defineTool({
      name: 'twice',
      description: 'Asks two things; safe to run again.',
      inputSchema: z.object({}),
      idempotent: true,
      async execute(_args, ctx) {
        runs.push('run');
        const first = await ctx.ask({ message: 'First?', schema: accountForm });
        const second = await ctx.ask({ message: 'Second?', url: 'https://example.com/confirm' });
        return [first.action, second.action];
      },
    });
    const events: ToolEvent[] = [];
    const runtime = createRuntime({ tools: [twice], sinks: [(event) => void events.push(event)] });
    const calls = createMemoryCallStore();
    const before = runtime.startRun({ runId: 'run_r', identity, calls });
    void before.call({ tool: 'twice', args: {}, toolCallId: 't' });
    const [first] = await until(() => (before.asks().length ? before.asks() : undefined));
    await before.answer(first!.askId, { action: 'accept', values: { from: 'savings', amount: 9 } });
    const [second] = await until(() => (before.asks()[0]?.message === 'Second?' ? before.asks() : undefined));
    // The host restarts: the same store, taken up again.
    const after = runtime.startRun({
      runId: 'run_r',
      identity,
      calls,
      continuesAfterSeq: events.at(-1)!.seq,
    });
    expect(after.asks()).toEqual([second]);
    const asked = events.filter((event) => event.type === 'ask.requested').length;
    const settled = await until(() => (runs.length === 2 ? true : undefined));
    expect(settled).toBe(true);
    expect(await after.answer(second!.askId, { action: 'accept' })).toMatchObject({ taken: true });
    const handle = await until(() => {
      const status = after.callStatus('t');
      return status?.status === 'completed' ? status : undefined;
    });
    expect(handle.result).toMatchObject({ ok: true, value: ['accept', 'accept'] });
    // The first ask was not put again, and the second kept its id.
    expect(events.filter((event) => event.type === 'ask.requested')).toHaveLength(asked);
    await expect(after.answer(second!.askId, { action: 'decline' })).resolves.toMatchObject({ taken: false });
  });
});
