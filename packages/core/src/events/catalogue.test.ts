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

  it('accepts custom.<name> for a name of the grammar, and no other', () => {
    expect(() => checkEvent('custom.anything', 1)).not.toThrow();
    expect(() => checkEvent('custom.page.fetched-2_a', 1)).not.toThrow();
    expect(() => checkEvent('custom.', {})).toThrow(/needs a name/);
    for (const type of [
      'custom.a\nb',
      'custom.a\r',
      'custom.A',
      'custom. a',
      'custom.a:b',
      `custom.${'x'.repeat(65)}`,
    ]) {
      expect(() => checkEvent(type, {}), JSON.stringify(type)).toThrow(/is not an event name/);
    }
  });

  it('never lets a type that would break an SSE frame into a log', () => {
    const log = new EventLog('run_1', [], () => {});
    expect(() => log.emit('custom.step\nevent: run.finished', {})).toThrow(TypeError);
    expect(log.lastSeq).toBe(0);
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
