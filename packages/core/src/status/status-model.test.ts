import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolEvent } from '../events/catalogue.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { createStatusModel } from './status-model.js';
import { germanTemplates } from './templates-de.js';

let seq = 0;
function event(type: string, callId: string, data: Record<string, unknown>): ToolEvent {
  return { type, seq: ++seq, callId, ts: 1000 + seq, data } as ToolEvent;
}

describe('the status model', () => {
  it('shows a message verbatim, cut by grapheme', () => {
    const status = createStatusModel();
    status.apply(event('tool.started', 'c1', { tool: 'fetch' }));
    expect(status.line('c1')?.text).toBe('fetch started…');
    status.apply(
      event('tool.progress', 'c1', { tool: 'fetch', payload: { message: '  Page 2 of 9  ' }, n: 1 }),
    );
    expect(status.line('c1')?.text).toBe('Page 2 of 9');
    const long = `${'🙂'.repeat(125)}`;
    status.apply(event('tool.progress', 'c1', { tool: 'fetch', payload: { message: long }, n: 2 }));
    expect(status.line('c1')?.text).toBe(`${'🙂'.repeat(120)}… (+5 more)`);
  });

  it('shows the generic line for a report without a message, counting reports', () => {
    const status = createStatusModel();
    status.apply(event('tool.progress', 'c1', { tool: 'crawl', payload: { done: 1 }, n: 1 }));
    status.apply(event('tool.progress', 'c1', { tool: 'crawl', payload: { pages: [1, 2] }, n: 2 }));
    expect(status.line('c1')).toMatchObject({
      text: 'crawl reported progress (2 so far)…',
      done: 1,
      reports: 2,
    });
  });

  it('keeps done and total for a progress bar, ignoring numbers that are not counts', () => {
    const status = createStatusModel();
    status.apply(event('tool.progress', 'c1', { tool: 't', payload: { done: 3, total: 10 }, n: 1 }));
    status.apply(event('tool.progress', 'c1', { tool: 't', payload: { done: -1, total: Number.NaN }, n: 2 }));
    expect(status.line('c1')).toMatchObject({ done: 3, total: 10 });
  });

  it('climbs the template ladder: per tool and moment, per moment, per tool, then the default', () => {
    const status = createStatusModel({
      templates: {
        'tool.search.progress': 'Searching: {message}',
        'tool.progress': '» {message}',
        'tool.build.generic': '{tool} is building ({count})',
        'tool.other': 'never used: tool.progress comes before tool.other',
        'tool.search.done': 'Found it',
        'tool.done': '✓ {tool}',
      },
    });
    status.apply(event('tool.progress', 's', { tool: 'search', payload: { message: 'cats' }, n: 1 }));
    status.apply(event('tool.progress', 'o', { tool: 'other', payload: { message: 'dogs' }, n: 1 }));
    status.apply(event('tool.progress', 'b', { tool: 'build', payload: { pct: 1 }, n: 1 }));
    expect(status.lines().map((line) => line.text)).toEqual([
      'Searching: cats',
      '» dogs',
      'build is building (1)',
    ]);
    status.apply(event('tool.finished', 's', { tool: 'search', durationMs: 1 }));
    status.apply(event('tool.finished', 'o', { tool: 'other', durationMs: 1 }));
    expect(
      status
        .lines()
        .map((line) => line.text)
        .slice(0, 2),
    ).toEqual(['Found it', '✓ other']);
  });

  it('takes template functions', () => {
    const status = createStatusModel({
      templates: { 'tool.progress': ({ message }) => (message ?? '').toUpperCase() },
    });
    status.apply(event('tool.progress', 'c', { tool: 't', payload: { message: 'loud' }, n: 1 }));
    expect(status.line('c')?.text).toBe('LOUD');
  });

  it('keeps a line per parallel call; a finished call never clears a sibling', () => {
    const status = createStatusModel();
    status.apply(event('tool.started', 'a', { tool: 'one' }));
    status.apply(event('tool.started', 'b', { tool: 'two' }));
    status.apply(event('tool.progress', 'b', { tool: 'two', payload: { message: 'b working' }, n: 1 }));
    status.apply(event('tool.finished', 'a', { tool: 'one', durationMs: 3 }));
    status.apply(
      event('tool.failed', 'c', {
        tool: 'three',
        durationMs: 1,
        error: { kind: 'tool-error', message: 'Broke.' },
      }),
    );
    status.apply(
      event('tool.failed', 'd', {
        tool: 'four',
        durationMs: 1,
        error: { kind: 'aborted', message: 'Stop.' },
      }),
    );
    expect(status.lines().map((line) => [line.callId, line.state, line.text])).toEqual([
      ['a', 'done', 'one done'],
      ['b', 'running', 'b working'],
      ['c', 'failed', 'three failed'],
      ['d', 'cancelled', 'four cancelled'],
    ]);
  });

  it('ignores a progress report that arrives for a finished line and events of no call', () => {
    const status = createStatusModel();
    status.apply(event('tool.finished', 'a', { tool: 'one', durationMs: 1 }));
    expect(status.apply(event('tool.progress', 'a', { tool: 'one', payload: 'late', n: 1 }))).toBeUndefined();
    expect(status.apply({ type: 'run.started', seq: 1, ts: 1, data: { phase: 'act' } })).toBeUndefined();
    expect(status.line('a')?.text).toBe('one done');
  });

  it('gives exactly the live lines when a recorded event list is replayed into a fresh model', async () => {
    const worker = defineTool({
      name: 'worker',
      description: 'Works in steps.',
      inputSchema: z.object({ steps: z.number(), fail: z.boolean() }),
      execute: async ({ steps, fail }, ctx) => {
        for (let i = 1; i <= steps; i++) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
          ctx.progress(i % 2 ? { message: `step ${i}`, done: i, total: steps } : { done: i });
        }
        if (fail) throw new Error('x');
        return steps;
      },
    });
    const recording: ToolEvent[] = [];
    const live = createStatusModel();
    const run = createRuntime({ tools: [worker] }).startRun();
    run.events.subscribe((e) => {
      recording.push(e);
      live.apply(e);
    });
    await run.callBatch([
      { tool: 'worker', args: { steps: 4, fail: false } },
      { tool: 'worker', args: { steps: 3, fail: true } },
      { tool: 'worker', args: { steps: 5, fail: false } },
    ]);
    const replayed = createStatusModel();
    for (const e of structuredClone(recording)) replayed.apply(e);
    expect(replayed.lines()).toEqual(live.lines());
    expect(live.lines().map((line) => line.state)).toEqual(['done', 'failed', 'done']);
  });
});

describe('the status model under a flood of reports', () => {
  it('keeps the run summary until a count changes, then words the new counts', () => {
    const status = createStatusModel();
    status.apply(event('tool.started', 'c1', { tool: 'fetch' }));
    const first = status.summary();
    for (let n = 1; n <= 100; n++)
      status.apply(event('tool.progress', 'c1', { tool: 'fetch', payload: { message: `page ${n}` }, n }));
    expect(status.summary()).toBe(first);
    status.apply(event('tool.started', 'c2', { tool: 'fetch' }));
    expect(status.summary().text).toBe('2 running · 0 of 2 done');
    status.apply(event('tool.finished', 'c1', { tool: 'fetch' }));
    expect(status.summary()).toMatchObject({ running: 1, done: 1, text: '1 running · 1 of 2 done' });
  });

  it('formats a line when its text is read, not per report, with the latest values', () => {
    let fills = 0;
    const status = createStatusModel({
      templates: {
        'tool.progress': (values) =>
          `${++fills}: ${values.message} (${values.count}, ${values.done}/${values.total})`,
      },
    });
    const line = status.apply(event('tool.started', 'c', { tool: 't' }))!;
    for (let n = 1; n <= 1000; n++) {
      status.apply(
        event('tool.progress', 'c', { tool: 't', payload: { message: ` m${n} `, done: n, total: 1000 }, n }),
      );
    }
    expect(fills).toBe(0);
    expect(line.text).toBe('1: m1000 (1000, 1000/1000)');
    expect(status.line('c')?.text).toBe('1: m1000 (1000, 1000/1000)');
    expect(fills).toBe(1);
  });
});

describe('the status model and waiting calls', () => {
  it('shows a call waiting for approval, then running again once decided', () => {
    const status = createStatusModel();
    status.apply(event('tool.started', 'p', { tool: 'pay' }));
    status.apply(event('tool.pending', 'p', { tool: 'pay', reason: 'approval', id: 'apr_1' }));
    expect(status.line('p')).toMatchObject({ state: 'pending', text: 'pay is waiting for approval…' });
    status.apply(event('approval.decided', 'p', { tool: 'pay', approvalId: 'apr_1', approved: true }));
    expect(status.line('p')?.state).toBe('running');
    status.apply(event('tool.finished', 'p', { tool: 'pay', durationMs: 1 }));
    expect(status.line('p')?.state).toBe('done');
  });

  it("shows a call waiting for its user's answer with the ask's message, then what it said before", () => {
    const status = createStatusModel({ timeoutWarningMs: 1000 });
    status.apply({ ...event('tool.started', 'q', { tool: 'plan', timeoutMs: 5000 }), ts: 0 });
    status.apply(
      event('tool.progress', 'q', { tool: 'plan', payload: { message: 'Reading the diary' }, n: 1 }),
    );
    const asked = {
      ...event('ask.requested', 'q', {
        tool: 'plan',
        askId: 'ask_1',
        message: '  Which <b>day</b> suits you?  ',
        schema: { type: 'object', properties: { day: { type: 'string', format: 'date' } } },
        expiresAt: 600_000,
      }),
      ts: 2000,
    };
    status.apply(asked);
    expect(status.line('q')).toMatchObject({
      state: 'pending',
      text: 'plan asks: Which <b>day</b> suits you?',
    });
    expect(status.line('q')?.parts[0]).toEqual({ type: 'code', text: 'plan' });
    expect(status.summary()).toMatchObject({ running: 0, pending: 1, text: '1 waiting · 0 of 1 done' });
    // Waiting is neither a stall nor a timeout drawing near, however long it lasts.
    const waiting = status.clock(status.line('q')!, 60_000);
    expect(waiting).toMatchObject({ stalled: false, nearTimeout: false, note: '' });
    // A second ask.requested for the same wait changes nothing.
    expect(status.apply(asked)).toBeUndefined();
    status.apply({
      ...event('ask.answered', 'q', { tool: 'plan', askId: 'ask_1', action: 'accept' }),
      ts: 62_000,
    });
    const line = status.line('q')!;
    expect(line).toMatchObject({ state: 'running', text: 'Reading the diary', lastReportAt: 62_000 });
    // The timeout held for the 60 s of waiting: 3 s were left when it asked, and still are.
    expect(line.timeoutAt).toBe(65_000);
    expect(status.clock(line, 63_000)).toMatchObject({ remainingMs: 2000, nearTimeout: false });
    expect(status.apply(event('ask.answered', 'q', { tool: 'plan', askId: 'ask_1', action: 'accept' }))).toBe(
      undefined,
    );
  });

  it('words an ask without a message, and the ask in German', () => {
    const status = createStatusModel({ templates: germanTemplates, locale: 'de' });
    status.apply(event('tool.started', 'a', { tool: 'plan' }));
    status.apply(
      event('ask.requested', 'a', { tool: 'plan', askId: 'x', message: 'Welcher Tag?', expiresAt: 1 }),
    );
    expect(status.line('a')?.text).toBe('plan fragt: Welcher Tag?');
    const english = createStatusModel();
    english.apply(event('tool.started', 'b', { tool: 'plan' }));
    english.apply(event('ask.requested', 'b', { tool: 'plan', askId: 'y', message: '  ', expiresAt: 1 }));
    expect(english.line('b')?.text).toBe('plan is waiting for an answer…');
    english.apply(event('ask.answered', 'b', { tool: 'plan', askId: 'y', action: 'cancel' }));
    expect(english.line('b')).toMatchObject({ state: 'running', text: 'plan started…' });
  });
});
