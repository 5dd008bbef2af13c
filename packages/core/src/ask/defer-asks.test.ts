import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolctxError } from '../errors.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import type { AskAnswer, AskSchema } from './ask.js';
import { deferAsks } from './defer-asks.js';

const accountForm: AskSchema = {
  type: 'object',
  properties: {
    from: { type: 'string', title: 'Account', enum: ['checking', 'savings'] },
    amount: { type: 'integer', minimum: 1, maximum: 1000 },
  },
  required: ['from', 'amount'],
};

describe('deferAsks: the asks of a door that calls again with the answers', () => {
  function transfer(seen: string[]) {
    return defineTool({
      name: 'transfer',
      description: 'Asks two things at once, then one more; keeps trying to swallow errors.',
      inputSchema: z.object({}),
      async execute(_args, ctx) {
        seen.push('ran');
        ctx.signal.addEventListener('abort', () =>
          seen.push(`signal:${(ctx.signal.reason as ToolctxError).info.kind}`),
        );
        try {
          const [from, sure] = await Promise.all([
            ctx.ask({ key: 'from', message: 'From where?', schema: accountForm }),
            ctx.ask({ key: 'sure', message: 'Sure?', url: 'https://bank.example/confirm?state=s' }),
          ]);
          const note = await ctx.ask({ message: 'A note?', schema: accountForm });
          return { from, sure: sure.action, note: note.action };
        } catch {
          return 'swallowed';
        }
      },
    });
  }

  it('ends a round as input-required naming the keys of the asks made together; the next round, answered, goes on', async () => {
    const seen: string[] = [];
    const events: ToolEvent[] = [];
    const runtime = createRuntime({ tools: [transfer(seen)], sinks: [(event) => void events.push(event)] });
    const first = deferAsks();
    const round1 = await runtime.callOnce({ tool: 'transfer', args: {}, toolCallId: 't1', askUser: first });
    expect(round1).toMatchObject({
      ok: false,
      error: { kind: 'input-required', retryable: false, details: { asks: ['from', 'sure'] } },
    });
    expect(first.deferred.map((ask) => [ask.key, ask.toolCallId])).toEqual([
      ['from', 't1'],
      ['sure', 't1'],
    ]);
    expect(first.deferred[1]).toMatchObject({ url: 'https://bank.example/confirm?state=s' });
    // The tool could not swallow it, and its signal said why.
    expect(seen).toEqual(['ran', 'signal:input-required']);
    // A URL ask's page is in the door's hands only: not in the result, nor any event.
    expect(JSON.stringify({ round1, events })).not.toContain('state=s');
    // Round two: one answer fits, the other does not (a value outside the form): asked again.
    const second = deferAsks({
      from: { action: 'accept', values: { from: 'nowhere', amount: 1 } },
      sure: { action: 'accept' },
    });
    const round2 = await runtime.callOnce({ tool: 'transfer', args: {}, toolCallId: 't1', askUser: second });
    expect(round2).toMatchObject({
      ok: false,
      error: { kind: 'input-required', details: { asks: ['from'] } },
    });
    const answers: Record<string, AskAnswer> = {
      from: { action: 'accept', values: { from: 'savings', amount: 9 } },
      sure: { action: 'accept' },
      '0': { action: 'decline' },
      stray: { action: 'accept' },
    };
    const round3 = await runtime.callOnce({
      tool: 'transfer',
      args: {},
      toolCallId: 't1',
      askUser: deferAsks(answers),
    });
    expect(round3).toMatchObject({
      ok: true,
      value: {
        from: { action: 'accept', values: { from: 'savings', amount: 9 } },
        sure: 'accept',
        note: 'decline',
      },
    });
  });
});
