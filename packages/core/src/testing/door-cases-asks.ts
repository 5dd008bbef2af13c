import { expect } from 'vitest';
import type { OpenAsk } from '../ask/ask.js';
import {
  type DoorCaseKit,
  type DoorCases,
  type DoorClient,
  freshKey,
  needs,
  until,
} from './door-suite-kit.js';

/** Starts `door_ask` (or `tool`) and waits for its ask; the call's outcome comes later. */
async function asking(client: DoorClient, tool = 'door_ask', signal?: AbortSignal) {
  const toolCallId = freshKey('ask');
  const outcome = client.call(tool, {}, { toolCallId, ...(signal ? { signal } : {}) });
  let open: OpenAsk | undefined;
  await until(async () => {
    open = (await client.asks!()).find((ask) => ask.toolCallId === toolCallId);
    return open !== undefined;
  }, 'the call asks');
  return { toolCallId, outcome, ask: open! };
}

const good = { action: 'accept', values: { colour: 'green', count: 3 } } as const;

/**
 * A tool asks its user mid-call (`ctx.ask`): the caller lists the ask, answers it once, is told
 * why an answer that does not fit was refused, and the call goes on with what it was given.
 */
export const askCases: DoorCases = (kit: DoorCaseKit) => {
  const asks = kit.supplies.asks === true;
  const ask = (title: string, run: () => Promise<void>) => needs(kit, asks, 'asks', title, run);
  return [
    ask('a call that asks is input_required with its ask, and goes on with the accepted values', () =>
      kit.withClients(async (open) => {
        const client = await open();
        const { toolCallId, outcome, ask } = await asking(client);
        expect(ask).toMatchObject({ tool: 'door_ask', message: 'Pick a colour and a count.' });
        if (client.callStatus)
          expect(await client.callStatus(toolCallId)).toMatchObject({ status: 'input_required', ask });
        expect(await client.answer!(ask.askId, good)).toEqual({ taken: true, toolCallId });
        expect((await outcome).result).toMatchObject({ ok: true, value: good });
        expect((await client.asks!()).some((open) => open.askId === ask.askId)).toBe(false);
      }),
    ),
    ask('decline and cancel reach the tool; an answer is taken once, a replay changes nothing', () =>
      kit.withClients(async (open) => {
        const client = await open();
        for (const action of ['decline', 'cancel'] as const) {
          const { outcome, ask } = await asking(client);
          expect(await client.answer!(ask.askId, { action })).toMatchObject({ taken: true });
          expect((await outcome).result).toMatchObject({ ok: true, value: { action } });
          expect(await client.answer!(ask.askId, good)).toMatchObject({ taken: false, reason: 'unknown' });
        }
      }),
    ),
    ask(
      'values outside the form are refused naming each problem, the ask stays open, a fixed answer is taken',
      () =>
        kit.withClients(async (open) => {
          const client = await open();
          const { outcome, ask } = await asking(client);
          const refused = await client.answer!(ask.askId, {
            action: 'accept',
            values: { colour: 'blue', count: 10, smuggled: true },
          });
          expect(refused).toMatchObject({
            taken: false,
            reason: 'invalid',
            error: { kind: 'invalid-argument' },
          });
          const message = refused.taken ? '' : refused.error.message;
          for (const part of [
            '"colour" must be one of',
            '"count" must be at most 9',
            '"smuggled" is not a field',
          ])
            expect(message).toContain(part);
          // Hostile sizes: a megabyte of text, ten thousand keys. Refused whole, nothing kept.
          const huge = await client.answer!(ask.askId, {
            ...good,
            values: { ...good.values, note: 'x'.repeat(1_000_000) },
          });
          expect(huge).toMatchObject({ taken: false });
          const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
          expect(await client.answer!(ask.askId, { action: 'accept', values: wide })).toMatchObject({
            taken: false,
            reason: 'invalid',
          });
          expect((await client.asks!()).map((open) => open.askId)).toContain(ask.askId);
          expect(await client.answer!(ask.askId, good)).toMatchObject({ taken: true });
          expect((await outcome).result).toMatchObject({ ok: true, value: good });
        }),
    ),
    ask('a URL ask shows its page and answers only that the person finished', () =>
      kit.withClients(async (open) => {
        const client = await open();
        const { outcome, ask } = await asking(client, 'door_ask_url');
        expect(ask).toMatchObject({ url: 'https://door-suite.example/finish' });
        expect(ask.schema).toBeUndefined();
        expect(await client.answer!(ask.askId, { action: 'accept', values: { secret: 'x' } })).toMatchObject({
          taken: true,
        });
        expect((await outcome).result).toMatchObject({ ok: true, value: { action: 'accept' } });
      }),
    ),
    ask('a call cancelled while it waits ends as cancelled, and its ask is withdrawn', () =>
      kit.withClients(async (open) => {
        const client = await open();
        const stop = new AbortController();
        const { outcome, ask } = await asking(client, 'door_ask', stop.signal);
        stop.abort();
        expect((await outcome).result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
        await until(
          async () => !(await client.asks!()).some((open) => open.askId === ask.askId),
          'the ask is withdrawn',
        );
        expect(await client.answer!(ask.askId, good)).toMatchObject({ taken: false, reason: 'unknown' });
      }),
    ),
    ask('another caller sees none of the asks and cannot answer one', () =>
      kit.withClients(async (open) => {
        const ana = await open('ana');
        const bob = await open('bob');
        const { outcome, ask } = await asking(ana);
        expect((await bob.asks!()).some((open) => open.askId === ask.askId)).toBe(false);
        expect(await bob.answer!(ask.askId, good)).toMatchObject({ taken: false });
        expect((await ana.asks!()).map((open) => open.askId)).toContain(ask.askId);
        expect(await ana.answer!(ask.askId, good)).toMatchObject({ taken: true });
        expect((await outcome).result).toMatchObject({ ok: true });
      }),
    ),
    needs(
      kit,
      asks && kit.supplies.restarts === true,
      'restart of its host',
      'an open ask outlives its host’s restart: still listed under its id, and answered, the call run again completes',
      () =>
        kit.withClients(async (open) => {
          const client = await open();
          const hangUp = new AbortController();
          const { toolCallId, outcome, ask } = await asking(client, 'door_ask', hangUp.signal);
          void outcome.catch(() => {});
          await client.restart!();
          await until(
            async () => (await client.asks!()).some((open) => open.askId === ask.askId),
            'the ask is listed again',
          );
          expect(await client.answer!(ask.askId, good)).toMatchObject({ taken: true });
          await until(
            async () => (await client.callStatus!(toolCallId))?.status === 'completed',
            'the call completes',
          );
          expect((await client.callStatus!(toolCallId))?.result).toMatchObject({ ok: true, value: good });
          hangUp.abort();
        }),
    ),
  ];
};
