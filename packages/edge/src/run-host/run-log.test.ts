import type { ToolEvent } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { RunLog } from './run-log.js';
import { createMemoryRunStorage } from './run-storage.js';

const event = (seq: number): ToolEvent => ({ type: 'custom.tick', seq, ts: 0, data: { seq } });

describe('RunLog', () => {
  it('keeps the last maxEvents events, in seq order, and reads after any kept point', () => {
    const log = new RunLog(createMemoryRunStorage(), 3);
    expect([log.latest, log.oldest]).toEqual([0, 1]);
    for (let seq = 1; seq <= 5; seq++) log.append(event(seq));
    expect([log.latest, log.oldest]).toEqual([5, 3]);
    expect(log.after(2).map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(log.after(4).map((e) => e.seq)).toEqual([5]);
    expect(log.after(5)).toEqual([]);
  });

  it('sorts seq numerically across digit counts (9 before 10)', () => {
    const log = new RunLog(createMemoryRunStorage(), 100);
    for (let seq = 1; seq <= 12; seq++) log.append(event(seq));
    expect(log.after(8).map((e) => e.seq)).toEqual([9, 10, 11, 12]);
  });

  it('reads its latest seq back from storage in a new instance (a restarted host)', () => {
    const storage = createMemoryRunStorage();
    const first = new RunLog(storage, 10);
    for (let seq = 1; seq <= 4; seq++) first.append(event(seq));
    expect(new RunLog(storage, 10).latest).toBe(4);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new RunLog(createMemoryRunStorage(), 0)).toThrow(/positive integer/);
  });
});
