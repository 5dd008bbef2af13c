import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../events/catalogue.js';
import { formatDuration } from './format.js';
import { createStatusModel } from './status-model.js';

let seq = 0;
function event(type: string, callId: string, ts: number, data: Record<string, unknown>): ToolEvent {
  return { type, seq: ++seq, callId, ts, data } as ToolEvent;
}
const fail = (callId: string, error: Record<string, unknown>, tool = 'publish') =>
  event('tool.failed', callId, 5, {
    tool,
    durationMs: 5,
    error: { retryable: false, message: 'For the model.', ...error },
  });

describe('each state of a line', () => {
  it('reads running, waiting, running again, then done, with the tool name as a code part', () => {
    const status = createStatusModel({ locale: 'en' });
    status.apply(event('tool.started', 'a', 0, { tool: 'publish' }));
    expect(status.line('a')).toMatchObject({ state: 'running', text: 'publish started…' });
    status.apply(event('tool.pending', 'a', 1, { tool: 'publish', reason: 'approval', id: 'x' }));
    expect(status.line('a')).toMatchObject({
      state: 'pending',
      text: 'publish is waiting for approval…',
      parts: [
        { type: 'code', text: 'publish' },
        { type: 'text', text: ' is waiting for approval…' },
      ],
    });
    status.apply(event('approval.decided', 'a', 2, { tool: 'publish', approved: true }));
    expect(status.line('a')?.state).toBe('running');
    status.apply(event('tool.finished', 'a', 3, { tool: 'publish', durationMs: 3 }));
    expect(status.line('a')).toMatchObject({ state: 'done', text: 'publish done' });
  });

  it('reads a cancel as cancelled and any other failure as failed', () => {
    const status = createStatusModel({ locale: 'en' });
    status.apply(fail('a', { kind: 'aborted' }));
    status.apply(fail('b', { kind: 'tool-error' }));
    expect(status.lines().map((line) => [line.state, line.text])).toEqual([
      ['cancelled', 'publish cancelled'],
      ['failed', 'publish failed'],
    ]);
  });

  it('never puts Markdown backticks in any default line', () => {
    const status = createStatusModel({ locale: 'en' });
    status.apply(event('tool.started', 'a', 0, { tool: 'build' }));
    status.apply(event('tool.progress', 'a', 1, { tool: 'build', payload: {} }));
    status.apply(event('tool.pending', 'b', 1, { tool: 'build', reason: 'authorization', id: 'y' }));
    status.apply(fail('c', { kind: 'timeout' }, 'build'));
    status.apply(fail('d', { kind: 'unknown-tool' }, 'build'));
    const texts = status.lines().map((line) => line.text);
    expect(texts).toHaveLength(4);
    for (const text of texts) expect(text).not.toContain('`');
  });
});

describe('the run summary', () => {
  it('counts running, waiting, done, failed and cancelled calls apart', () => {
    const status = createStatusModel({ locale: 'en' });
    for (const id of ['a', 'b', 'c', 'd', 'e']) status.apply(event('tool.started', id, 0, { tool: 't' }));
    status.apply(event('tool.pending', 'b', 1, { tool: 't', reason: 'approval', id: 'x' }));
    status.apply(event('tool.finished', 'c', 2, { tool: 't', durationMs: 2 }));
    expect(status.summary().text).toBe('3 running, 1 waiting · 1 of 5 done');
    status.apply(fail('d', { kind: 'aborted' }, 't'));
    status.apply(fail('e', { kind: 'tool-error' }, 't'));
    expect(status.summary()).toMatchObject({
      running: 1,
      pending: 1,
      done: 1,
      failed: 1,
      cancelled: 1,
      total: 5,
      text: '1 running, 1 waiting · 1 done, 1 failed, 1 cancelled of 5',
    });
  });

  it('says a cancel instead of hiding it in “1 of 2 done”', () => {
    const status = createStatusModel({ locale: 'en' });
    status.apply(event('tool.finished', 'a', 1, { tool: 't', durationMs: 1 }));
    status.apply(fail('b', { kind: 'aborted' }, 't'));
    expect(status.summary().text).toBe('1 done, 1 cancelled of 2');
  });
});

describe('formatDuration', () => {
  it.each([
    [40, true, '0.04 s'],
    [400, true, '0.4 s'],
    [9900, true, '9.9 s'],
    [9990, true, '9.9 s'],
    [12_000, true, '12 s'],
    [59_900, true, '59 s'],
    [63_000, true, '1 min 3 s'],
    [60_000, false, '1 min'],
    [3_600_000, false, '1 h'],
    [3_720_000, false, '1 h 2 min'],
    [400, false, '0 s'],
    [0, true, '0 s'],
    [-5, true, '0 s'],
  ])('reads %d ms (precise: %s) as %s', (ms, precise, expected) => {
    expect(formatDuration(ms, 'en', precise)).toBe(expected);
  });

  it('writes the number for the locale and keeps the unit symbols', () => {
    expect(formatDuration(9900, 'de', true)).toBe('9,9 s');
    expect(formatDuration(63_000, 'de')).toBe('1 min 3 s');
  });
});

describe('templates per error kind', () => {
  it('says a denial with the reason the person gave, and without one when none was given', () => {
    const status = createStatusModel({ locale: 'en' });
    status.apply(fail('a', { kind: 'approval-denied', details: { reason: 'Denied in the demo.' } }));
    status.apply(fail('b', { kind: 'approval-denied' }));
    expect(status.line('a')?.text).toBe('publish not approved — Denied in the demo.');
    expect(status.line('b')?.text).toBe('publish not approved');
  });

  it('says a timeout with the tool’s timeout from tool.started', () => {
    const status = createStatusModel({ locale: 'en' });
    status.apply(event('tool.started', 'a', 0, { tool: 'build', timeoutMs: 30_000 }));
    status.apply(fail('a', { kind: 'timeout' }, 'build'));
    status.apply(fail('b', { kind: 'timeout' }, 'build'));
    expect(status.line('a')?.text).toBe('build took too long (30 s)');
    expect(status.line('b')?.text).toBe('build took too long');
  });

  it('keeps the model’s message out of the line but in the values a host template may use', () => {
    const status = createStatusModel({ templates: { 'tool.failed.tool-error': 'Oops: {error}' } });
    status.apply(fail('a', { kind: 'tool-error' }));
    status.apply(fail('b', { kind: 'conflict' }));
    expect(status.line('a')?.text).toBe('Oops: For the model.');
    expect(status.line('b')?.text).toBe('publish failed');
  });

  it('climbs the ladder: tool and kind, kind, tool and failed, failed, then the defaults', () => {
    const ladder = {
      'tool.publish.failed.policy-refused': 'A',
      'tool.failed.policy-refused': 'B',
      'tool.publish.failed': 'C',
      'tool.failed': 'D',
    };
    const seen: string[] = [];
    for (const drop of [0, 1, 2, 3, 4]) {
      const templates = Object.fromEntries(Object.entries(ladder).slice(drop));
      const status = createStatusModel({ templates });
      status.apply(fail('a', { kind: 'policy-refused' }));
      seen.push(status.line('a')!.text);
    }
    expect(seen).toEqual(['A', 'B', 'C', 'D', 'publish is not allowed here']);
  });

  it('asks the .generic rung of a kind when its value is missing, before the failed ladder', () => {
    const status = createStatusModel({
      templates: { 'tool.failed.approval-denied.generic': 'Refused', 'tool.failed': 'Failed' },
    });
    status.apply(fail('a', { kind: 'approval-denied' }));
    status.apply(fail('b', { kind: 'approval-denied', details: { reason: 'No.' } }));
    expect(status.line('a')?.text).toBe('Refused');
    expect(status.line('b')?.text).toBe('Failed');
  });

  it('takes a function template that gives parts', () => {
    const status = createStatusModel({
      templates: {
        'tool.done': ({ tool }) => [
          { type: 'text', text: 'Ran ' },
          { type: 'code', text: `${tool}()` },
        ],
      },
    });
    status.apply(event('tool.finished', 'a', 1, { tool: 'build', durationMs: 1 }));
    expect(status.line('a')).toMatchObject({
      text: 'Ran build()',
      parts: [{ type: 'text' }, { type: 'code' }],
    });
  });
});
