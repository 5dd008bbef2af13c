import { describe, expect, it } from 'vitest';
import { checkEvent, eventCatalogue } from './catalogue.js';
import { EventLog } from './event-log.js';

describe('the event catalogue', () => {
  it('refuses a type outside the catalogue, naming the way out', () => {
    expect(() => checkEvent('tool.exploded', {})).toThrow(
      /Unknown event type "tool\.exploded".*custom\.<name>/,
    );
  });

  it('refuses an event missing a required key', () => {
    for (const [type, keys] of Object.entries(eventCatalogue)) {
      for (const key of keys) {
        const data = Object.fromEntries(keys.filter((other) => other !== key).map((other) => [other, 1]));
        expect(() => checkEvent(type, data)).toThrow(`${type} needs data.${String(key)}.`);
      }
      expect(() => checkEvent(type, Object.fromEntries(keys.map((key) => [key, 1])))).not.toThrow();
    }
  });

  it('accepts any custom.<name> but not a bare custom.', () => {
    expect(() => checkEvent('custom.anything', 1)).not.toThrow();
    expect(() => checkEvent('custom.', {})).toThrow(/needs a name/);
  });

  it('a custom name outside the grammar (a line break, a space, too long) is refused', () => {
    for (const name of ['step.2', 'Step_3-b', 'a', 'x'.repeat(64)]) {
      expect(() => checkEvent(`custom.${name}`, null)).not.toThrow();
    }
    for (const name of ['bad\nname', 'bad\rname', 'with space', '-lead', '.lead', 'ümlaut', 'x'.repeat(65)]) {
      expect(() => checkEvent(`custom.${name}`, null)).toThrow(/A custom event name is 1–64 of/);
    }
  });

  it('covers every type the design names', () => {
    expect(Object.keys(eventCatalogue).sort()).toEqual(
      [
        'run.started',
        'run.finished',
        'tool.started',
        'tool.progress',
        'tool.progress_rejected',
        'tool.finished',
        'tool.failed',
        'tool.retry',
        'tool.cached',
        'tool.pending',
        'approval.requested',
        'approval.decided',
        'credential.requested',
        'credential.acquired',
        'credential.failed',
        'artifact.put',
        'artifact.resolved',
        'artifact.refused',
        'artifact.deleted',
        'artifact.expired',
        'teardown.fired',
        'teardown.failed',
        'budget.warning',
        'budget.exceeded',
        'output.spilled',
        'policy.refused',
      ].sort(),
    );
  });
});

describe('EventLog', () => {
  it('stamps seq one more per event, and the run id, call id and parent id given', () => {
    const log = new EventLog('run_1', [], () => {});
    const first = log.emit('tool.started', { tool: 't' }, 'c1');
    const second = log.emit('tool.started', { tool: 't' }, 'c2', 'c1');
    expect(first).toMatchObject({ seq: 1, runId: 'run_1', callId: 'c1' });
    expect(first).not.toHaveProperty('parentId');
    expect(second).toMatchObject({ seq: 2, parentId: 'c1' });
    expect(log.lastSeq).toBe(2);
  });

  it('leaves runId absent, not empty, where there is no run', () => {
    const event = new EventLog(undefined, [], () => {}).emit('tool.started', { tool: 't' });
    expect('runId' in event).toBe(false);
  });

  it('detaches a throwing subscriber after reporting it once, and keeps delivering to the others', () => {
    const reported: unknown[] = [];
    const log = new EventLog('r', [], (error) => reported.push(error));
    const good: number[] = [];
    log.subscribe(() => {
      throw new Error('bad');
    });
    log.subscribe((event) => good.push(event.seq));
    for (let i = 0; i < 3; i++) log.emit('tool.started', { tool: 't' });
    expect(reported).toHaveLength(1);
    expect(good).toEqual([1, 2, 3]);
  });

  it('stops a subscriber when it unsubscribes', () => {
    const log = new EventLog('r', [], () => {});
    const seen: number[] = [];
    const stop = log.subscribe((event) => seen.push(event.seq));
    log.emit('tool.started', { tool: 't' });
    stop();
    log.emit('tool.started', { tool: 't' });
    expect(seen).toEqual([1]);
  });
});
