import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolEvent } from '../events/catalogue.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { formatDuration } from './format.js';
import { createStatusModel } from './status-model.js';
import { defaultTemplates } from './templates.js';
import { germanTemplates } from './templates-de.js';

let seq = 0;
function event(type: string, callId: string, ts: number, data: Record<string, unknown>): ToolEvent {
  return { type, seq: ++seq, callId, ts, data } as ToolEvent;
}

describe('the run line', () => {
  it('counts running, done and failed calls as they change state', () => {
    const status = createStatusModel({ locale: 'en' });
    for (const id of ['a', 'b', 'c', 'd', 'e']) status.apply(event('tool.started', id, 0, { tool: 't' }));
    expect(status.summary()).toMatchObject({
      total: 5,
      running: 5,
      done: 0,
      text: '5 running · 0 of 5 done',
    });
    for (const id of ['a', 'b', 'c'])
      status.apply(event('tool.finished', id, 1, { tool: 't', durationMs: 1 }));
    status.apply(
      event('tool.failed', 'd', 1, { tool: 't', durationMs: 1, error: { kind: 'tool-error', message: 'x' } }),
    );
    expect(status.summary()).toMatchObject({ running: 1, done: 3, failed: 1 });
    expect(status.summary().text).toBe('1 running · 3 done, 1 failed of 5');
    status.apply(event('tool.finished', 'e', 2, { tool: 't', durationMs: 2 }));
    expect(status.summary().text).toBe('4 done, 1 failed of 5');
    // A second end for the same call is not counted twice.
    status.apply(event('tool.finished', 'e', 3, { tool: 't', durationMs: 2 }));
    expect(status.summary()).toMatchObject({ total: 5, done: 4, failed: 1, running: 0 });
  });

  it('counts a call waiting for approval as waiting, not running, and a cancel apart from failures', () => {
    const status = createStatusModel({ locale: 'en' });
    status.apply(event('tool.started', 'p', 0, { tool: 'pay' }));
    status.apply(event('tool.pending', 'p', 1, { tool: 'pay', reason: 'approval', id: 'apr' }));
    expect(status.summary()).toMatchObject({ running: 0, pending: 1, text: '1 waiting · 0 of 1 done' });
    status.apply(
      event('tool.failed', 'p', 2, { tool: 'pay', durationMs: 2, error: { kind: 'aborted', message: '' } }),
    );
    expect(status.summary()).toMatchObject({
      running: 0,
      pending: 0,
      cancelled: 1,
      failed: 0,
      text: '0 done, 1 cancelled of 1',
    });
  });
});

describe('a line’s clock', () => {
  it('shows elapsed whole seconds, then the measured duration once ended', () => {
    const status = createStatusModel({ locale: 'en', stallAfterMs: 60_000 });
    const line = status.apply(event('tool.started', 'a', 1000, { tool: 't' }))!;
    expect(status.clock(line, 13_900)).toMatchObject({ elapsedMs: 12_900, elapsed: '12 s', note: '' });
    status.apply(event('tool.finished', 'a', 14_000, { tool: 't', durationMs: 420 }));
    expect(status.clock(status.line('a')!, 99_000)).toMatchObject({
      elapsedMs: 420,
      elapsed: '0.4 s',
      stalled: false,
    });
  });

  it('says a silent call is stalled after stallAfterMs, and returns to normal at its next report', () => {
    const status = createStatusModel({ locale: 'en', stallAfterMs: 5000 });
    status.apply(event('tool.started', 'a', 0, { tool: 't' }));
    expect(status.clock(status.line('a')!, 4999).stalled).toBe(false);
    expect(status.clock(status.line('a')!, 12_000)).toMatchObject({
      stalled: true,
      note: 'no report for 12 s',
    });
    status.apply(event('tool.progress', 'a', 12_500, { tool: 't', payload: 'alive', n: 1 }));
    expect(status.clock(status.line('a')!, 13_000)).toMatchObject({
      stalled: false,
      note: '',
      elapsed: '13 s',
    });
  });

  it('stalls after 10 s by default and never while waiting for a person', () => {
    const status = createStatusModel({ locale: 'en' });
    status.apply(event('tool.started', 'a', 0, { tool: 't' }));
    expect(status.clock(status.line('a')!, 9999).stalled).toBe(false);
    expect(status.clock(status.line('a')!, 10_000).stalled).toBe(true);
    status.apply(event('tool.pending', 'a', 10_001, { tool: 't', reason: 'approval', id: 'x' }));
    expect(status.clock(status.line('a')!, 60_000)).toMatchObject({ stalled: false, note: '' });
  });

  it('warns before a timeout fires, and a retry starts a fresh timeout', () => {
    const status = createStatusModel({ locale: 'en', stallAfterMs: 60_000 });
    status.apply(event('tool.started', 'a', 0, { tool: 't', timeoutMs: 30_000 }));
    expect(status.clock(status.line('a')!, 20_000)).toMatchObject({
      remainingMs: 10_000,
      nearTimeout: false,
    });
    expect(status.clock(status.line('a')!, 26_500)).toMatchObject({
      nearTimeout: true,
      note: 'times out in 4 s',
    });
    status.apply(event('tool.retry', 'a', 30_000, { tool: 't', attempt: 2, delayMs: 1000, error: {} }));
    expect(status.clock(status.line('a')!, 31_000)).toMatchObject({
      remainingMs: 30_000,
      nearTimeout: false,
    });
  });

  it('warns at half of a short timeout', () => {
    const status = createStatusModel({ locale: 'en' });
    status.apply(event('tool.started', 'a', 0, { tool: 't', timeoutMs: 4000 }));
    expect(status.clock(status.line('a')!, 1900).nearTimeout).toBe(false);
    expect(status.clock(status.line('a')!, 2000).nearTimeout).toBe(true);
  });

  it('warns 5,000 ms before a long timeout by default: 5,000 ms left is near (≤), 5,001 ms is not', () => {
    // A 60 s timeout: half of it (30 s) is above the default, so the default alone decides.
    const status = createStatusModel({ locale: 'en', stallAfterMs: 600_000 });
    status.apply(event('tool.started', 'a', 0, { tool: 't', timeoutMs: 60_000 }));
    expect(status.clock(status.line('a')!, 54_999)).toMatchObject({ remainingMs: 5001, nearTimeout: false });
    expect(status.clock(status.line('a')!, 55_000)).toMatchObject({ remainingMs: 5000, nearTimeout: true });
  });

  it('refuses a stall or warning time that is not a positive number, naming the option', () => {
    expect(() => createStatusModel({ stallAfterMs: 0 })).toThrow(/stallAfterMs must be a positive number/);
    expect(() => createStatusModel({ timeoutWarningMs: Number.NaN })).toThrow(/timeoutWarningMs/);
  });

  it('learns the tool’s timeout from tool.started', async () => {
    const slow = defineTool({
      name: 'slow',
      description: 'Has a timeout.',
      inputSchema: z.object({}),
      timeoutMs: 2500,
      execute: async () => 1,
    });
    const status = createStatusModel();
    const run = createRuntime({ tools: [slow] }).startRun();
    const started: unknown[] = [];
    run.events.subscribe((e) => {
      if (e.type === 'tool.started') started.push(e.data);
      status.apply(e);
    });
    await run.call({ tool: 'slow', args: {} });
    expect(started).toEqual([{ tool: 'slow', timeoutMs: 2500 }]);
    expect(status.lines()[0]).toMatchObject({ timeoutMs: 2500, state: 'done' });
  });
});

describe('languages', () => {
  it('the German pack translates every key', () => {
    expect(Object.keys(germanTemplates).sort()).toEqual(Object.keys(defaultTemplates).sort());
    const sameAsEnglish = Object.keys(defaultTemplates).filter(
      (key) => germanTemplates[key] === defaultTemplates[key],
    );
    // Only the keys that are nothing but a placeholder read the same in both.
    expect(sameAsEnglish.sort()).toEqual(['call.elapsed', 'tool.progress']);
  });

  it('formats numbers and durations with Intl for the locale', () => {
    const status = createStatusModel({ templates: germanTemplates, locale: 'de' });
    status.apply(event('tool.started', 'a', 0, { tool: 'crawl' }));
    status.apply(event('tool.pending', 'a', 1, { tool: 'crawl', reason: 'approval', id: 'x' }));
    expect(status.line('a')?.text).toBe('crawl wartet auf Freigabe…');
    for (let n = 1; n <= 1200; n++) {
      status.apply(event('tool.progress', 'b', 2, { tool: 'crawl', payload: {}, n }));
    }
    expect(status.line('b')?.text).toBe('crawl meldet Fortschritt (1.200 bisher)…');
    expect(status.summary().text).toBe('1 laufen, 1 warten · 0 von 2 fertig');
    expect(status.clock(status.line('b')!, 12_002).note).toBe(
      `seit ${formatDuration(12_000, 'de')} keine Meldung`,
    );
    expect(formatDuration(12_000, 'de')).toBe('12 s');
    expect(formatDuration(75_000, 'en')).toBe('1 min 15 s');
    expect(formatDuration(420, 'de', true)).toBe('0,4 s');
  });
});
