import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { OpenAsk } from '../ask/ask.js';
import type { CredentialAnswer, CredentialProvider } from '../credentials/credential-provider.js';
import type { ToolEvent } from '../events/catalogue.js';
import { until } from '../testing/door-suite-kit.js';
import { defineTool } from '../tools/define-tool.js';
import { createMemoryCallStore } from './call-book.js';
import { createRuntime } from './create-runtime.js';

const identity = { tenant: 'acme', principal: 'ana' };
const AUTH_URL = 'https://auth.example/authorize?state=PLANTED-STATE';

/** A provider that needs a sign-in until `grant()`; counts how often it was asked. */
function signInProvider() {
  const state = { granted: false, resolved: 0 };
  const provider: CredentialProvider = {
    async resolve({ credential }): Promise<CredentialAnswer> {
      state.resolved++;
      return state.granted
        ? { kind: 'issued', credential: { credential, value: 'cal-token-123456' } }
        : { kind: 'authorization-required', authorizationUrl: AUTH_URL, authorizationId: 'auth_1' };
    },
  };
  return { state, provider };
}

function setup(options: { onAuthorizationUrl?: (id: string, url: string) => void } = {}) {
  const { state, provider } = signInProvider();
  const events: ToolEvent[] = [];
  const ran: string[] = [];
  const calendar = defineTool({
    name: 'calendar',
    description: 'Reads the calendar; needs the person to sign in.',
    inputSchema: z.object({}),
    needs: { credential: 'calendar' },
    idempotent: true,
    execute: (_args, ctx) => {
      ran.push(ctx.credential?.value ?? 'none');
      return 'events';
    },
  });
  const inbox = defineTool({
    name: 'inbox',
    description: 'Reads mail with a credential it gets itself, then asks which folder.',
    inputSchema: z.object({}),
    async execute(_args, ctx) {
      const mail = await ctx.credentials.get({ credential: 'mail' });
      const folder = await ctx.ask({
        message: 'Which folder?',
        schema: { type: 'object', properties: { folder: { type: 'string', enum: ['in', 'out'] } } },
      });
      return { token: mail.value.length, folder };
    },
  });
  const runtime = createRuntime({
    tools: [calendar, inbox],
    credentials: provider,
    sinks: [(event) => void events.push(event)],
    ...options,
  });
  return { state, events, ran, runtime };
}

/** The run's first open ask, once its call has asked. */
async function openAsk(run: { asks(): OpenAsk[] }): Promise<OpenAsk> {
  await until(() => run.asks().length > 0, 'the call asks');
  return run.asks()[0]!;
}

describe("a credential's sign-in is a URL ask", () => {
  it('asks the person to open the provider’s link, and runs the tool once they finished there', async () => {
    const hooked: string[] = [];
    const { state, events, ran, runtime } = setup({ onAuthorizationUrl: (_id, url) => hooked.push(url) });
    const run = runtime.startRun({ identity });
    const done = run.call({ tool: 'calendar', args: {}, toolCallId: 'c1' });
    const open = await openAsk(run);
    expect(open).toMatchObject({ toolCallId: 'c1', tool: 'calendar', url: AUTH_URL });
    expect(open.message).toContain('calendar');
    expect(run.callStatus('c1')).toMatchObject({ status: 'input_required', ask: { url: AUTH_URL } });
    state.granted = true;
    expect(await run.answer(open.askId, { action: 'accept' })).toMatchObject({ taken: true });
    expect(await done).toMatchObject({ ok: true, value: 'events' });
    expect(ran).toEqual(['cal-token-123456']);
    expect(state.resolved).toBe(2);
    // The link went to the person who may answer, not to the host's hook, nor into the log.
    expect(hooked).toEqual([]);
    const asked = events.find((event) => event.type === 'ask.requested');
    expect(asked?.data).toEqual({
      tool: 'calendar',
      askId: open.askId,
      message: open.message,
      expiresAt: open.expiresAt,
    });
    expect(JSON.stringify(events)).not.toContain('PLANTED-STATE');
    expect(events.map((event) => event.type)).toContain('credential.acquired');
  });

  it('decline fails the call credential-failed; no answer (cancel) leaves it authorization-required', async () => {
    const { ran, runtime } = setup();
    const run = runtime.startRun({ identity });
    const declined = run.call({ tool: 'calendar', args: {} });
    await run.answer((await openAsk(run)).askId, { action: 'decline' });
    expect(await declined).toMatchObject({
      ok: false,
      error: { kind: 'credential-failed', details: { credential: 'calendar', reason: 'declined' } },
    });
    const cancelled = run.call({ tool: 'calendar', args: {} });
    await run.answer((await openAsk(run)).askId, { action: 'cancel' });
    const result = await cancelled;
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'authorization-required', retryable: true, details: { delivered: true } },
    });
    expect(JSON.stringify(result)).not.toContain('PLANTED-STATE');
    // Finished there, but the provider still says no: the call fails, it does not ask again.
    const unfinished = run.call({ tool: 'calendar', args: {} });
    await run.answer((await openAsk(run)).askId, { action: 'accept' });
    expect(await unfinished).toMatchObject({
      ok: false,
      error: { kind: 'authorization-required', message: expect.stringContaining('still needs it') },
    });
    expect(run.asks()).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('ctx.credentials asks too, apart from the tool’s own asks', async () => {
    const { state, runtime } = setup();
    const run = runtime.startRun({ identity });
    const done = run.call({ tool: 'inbox', args: {} });
    const signIn = await openAsk(run);
    expect(signIn).toMatchObject({ url: AUTH_URL });
    state.granted = true;
    await run.answer(signIn.askId, { action: 'accept' });
    await until(() => run.asks().some((ask) => ask.schema), 'the tool asks which folder');
    const folder = run.asks().find((ask) => ask.schema)!;
    await run.answer(folder.askId, { action: 'accept', values: { folder: 'out' } });
    expect(await done).toMatchObject({
      ok: true,
      value: { token: 16, folder: { action: 'accept', values: { folder: 'out' } } },
    });
  });

  it('a call that cannot ask gives the link to the host’s hook and fails authorization-required at once', async () => {
    const hooked: string[] = [];
    const { runtime } = setup({ onAuthorizationUrl: (_id, url) => hooked.push(url) });
    const run = runtime.startRun({ identity, canAsk: false });
    expect(await run.call({ tool: 'calendar', args: {} })).toMatchObject({
      ok: false,
      error: { kind: 'authorization-required', details: { authorizationId: 'auth_1', delivered: true } },
    });
    expect(hooked).toEqual([AUTH_URL]);
    // Outside a run, the door's askUser carries it; a door without one falls back the same way.
    const seen: unknown[] = [];
    const once = await runtime.callOnce({
      tool: 'calendar',
      args: {},
      identity,
      askUser: async (ask) => {
        seen.push(ask);
        return { action: 'decline' };
      },
    });
    expect(once).toMatchObject({ ok: false, error: { kind: 'credential-failed' } });
    expect(seen).toMatchObject([{ url: AUTH_URL }]);
    expect(await runtime.callOnce({ tool: 'calendar', args: {}, identity })).toMatchObject({
      ok: false,
      error: { kind: 'authorization-required' },
    });
    expect(hooked).toEqual([AUTH_URL, AUTH_URL]);
  });

  it('cancelling a call that waits for its sign-in withdraws the ask and never runs the tool', async () => {
    const { ran, runtime } = setup();
    const run = runtime.startRun({ identity });
    const done = run.call({ tool: 'calendar', args: {}, toolCallId: 'w' });
    const open = await openAsk(run);
    expect(run.cancel('w', 'the person left')).toBe(true);
    expect(await done).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(run.asks()).toEqual([]);
    expect(await run.answer(open.askId, { action: 'accept' })).toMatchObject({ taken: false });
    expect(ran).toEqual([]);
  });

  it('after a restart the sign-in is still open under its id, and the call goes on once answered', async () => {
    const { state, events, ran, runtime } = setup();
    const calls = createMemoryCallStore();
    const before = runtime.startRun({ runId: 'run_s', identity, calls });
    void before.call({ tool: 'calendar', args: {}, toolCallId: 't' });
    const open = await openAsk(before);
    // The host restarts: the same store, taken up again; the idempotent call runs again.
    const after = runtime.startRun({
      runId: 'run_s',
      identity,
      calls,
      continuesAfterSeq: events.at(-1)!.seq,
    });
    expect(after.asks()).toEqual([open]);
    await until(() => state.resolved === 2, 'the call runs again and asks the provider');
    state.granted = true;
    expect(await after.answer(open.askId, { action: 'accept' })).toMatchObject({ taken: true });
    await until(() => after.callStatus('t')?.status === 'completed', 'the call completes');
    const handle = after.callStatus('t')!;
    expect(handle.result).toMatchObject({ ok: true, value: 'events' });
    expect(ran).toEqual(['cal-token-123456']);
    expect(events.filter((event) => event.type === 'ask.requested')).toHaveLength(1);
  });
});
