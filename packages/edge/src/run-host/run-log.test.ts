import type { CallRecord, ToolEvent } from '@toolctx/core';
import { describe, expect, it, vi } from 'vitest';
import { RunLog } from './run-log.js';
import { createMemoryRunStorage, type RunStorage } from './run-storage.js';

const event = (seq: number): ToolEvent => ({ type: 'custom.tick', seq, ts: 0, data: { seq } });

describe('createMemoryRunStorage', () => {
  it('lists by prefix from start, in key order or reversed, at most limit entries', () => {
    const storage = createMemoryRunStorage();
    for (const key of ['b:2', 'a:1', 'b:1', 'b:3']) storage.put(key, key);
    const keys = (options: Parameters<typeof storage.list>[0]) =>
      [...storage.list(options)].map(([key]) => key);
    expect(keys({ prefix: 'b:' })).toEqual(['b:1', 'b:2', 'b:3']);
    expect(keys({ prefix: 'b:', start: 'b:2' })).toEqual(['b:2', 'b:3']);
    expect(keys({ prefix: 'b:', reverse: true, limit: 1 })).toEqual(['b:3']);
    expect(keys({ limit: 2 })).toEqual(['a:1', 'b:1']);
  });
});

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

  it('writes one key per event and nothing else, and trims by deleting the oldest', () => {
    const storage = createMemoryRunStorage();
    const log = new RunLog(storage, 3);
    for (let seq = 1; seq <= 5; seq++) log.append(event(seq));
    const keys = [...storage.list({})].map(([key]) => key);
    expect(keys).toEqual(['e:000000000000003', 'e:000000000000004', 'e:000000000000005']);
  });

  it('reads its latest seq back from the last event kept, after trimming', () => {
    const storage = createMemoryRunStorage();
    const first = new RunLog(storage, 2);
    for (let seq = 1; seq <= 12; seq++) first.append(event(seq));
    const restarted = new RunLog(storage, 2);
    expect([restarted.latest, restarted.oldest]).toEqual([12, 11]);
    expect(restarted.after(10).map((e) => e.seq)).toEqual([11, 12]);
  });

  it('a storage that refuses every write costs the event its replay, not the run: append says so and returns', () => {
    const storage = createMemoryRunStorage();
    const full = {
      ...storage,
      put: () => {
        throw new Error('SQLITE_FULL');
      },
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const log = new RunLog(full, 10);
      expect(() => log.append(event(1))).not.toThrow();
      expect(log.latest).toBe(1);
      expect(warn).toHaveBeenCalledWith('toolctx: event 1 (custom.tick) could not be kept: Error.');
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new RunLog(createMemoryRunStorage(), 0)).toThrow(/positive integer/);
  });
});

describe('RunLog storage work', () => {
  // A storage that refuses a value whose JSON is over 256 Ki characters, as a Durable Object
  // refuses one over 2 MB: such a value is kept in pieces (stored-values.ts).
  const refusingBig = (): RunStorage => {
    const storage = createMemoryRunStorage();
    return {
      ...storage,
      put(key, value) {
        if (typeof value === 'object' && JSON.stringify(value).length > 300 * 1024)
          throw new Error('SQLITE_TOOBIG');
        storage.put(key, value);
      },
    };
  };
  const big = (seq: number): ToolEvent => ({ ...event(seq), data: { text: 'x'.repeat(600_000) } });

  it('trims an event kept in pieces by the host before a restart with all its pieces, as one of its own', () => {
    const storage = refusingBig();
    const before = new RunLog(storage, 2);
    before.append(event(1));
    before.append(big(2));
    const after = new RunLog(storage, 2);
    after.append(event(3));
    after.append(big(4));
    for (let seq = 5; seq <= 6; seq++) after.append(event(seq));
    expect([...storage.list({})].map(([key]) => key)).toEqual(['e:000000000000005', 'e:000000000000006']);
  });

  it('a settled call looked up before it was filed is found once it is (the twin check reads storage once)', () => {
    const storage = createMemoryRunStorage();
    const gets = vi.spyOn(storage, 'get');
    const log = new RunLog(storage, 10);
    expect(log.calls.get('call_1')).toBeUndefined();
    expect(log.calls.get('call_1')).toBeUndefined();
    expect(gets).toHaveBeenCalledTimes(1);
    const record = { toolCallId: 'call_1', tool: 't', status: 'completed', startedAt: 1, updatedAt: 2 };
    log.calls.put(record as CallRecord);
    expect(log.calls.get('call_1')).toEqual(record);
    expect(new RunLog(storage, 10).calls.get('call_1')).toEqual(record);
  });

  it('a settled call read again and again (an MCP task polled once it completed) is read from storage at most once', () => {
    const storage = createMemoryRunStorage();
    const record = {
      toolCallId: 'task_1',
      tool: 't',
      status: 'completed',
      startedAt: 1,
      updatedAt: 2,
    } as CallRecord;
    const filing = new RunLog(storage, 10);
    filing.calls.put(record);
    const gets = vi.spyOn(storage, 'get');
    for (let poll = 0; poll < 5; poll++) expect(filing.calls.get('task_1')).toEqual(record);
    expect(gets).not.toHaveBeenCalled();
    // A host that restarted reads it once.
    const restarted = new RunLog(storage, 10);
    for (let poll = 0; poll < 5; poll++) expect(restarted.calls.get('task_1')).toEqual(record);
    expect(gets).toHaveBeenCalledTimes(1);
    // A host whose storage was deleted under it keeps nothing.
    storage.delete('c:task_1');
    restarted.forget();
    expect(restarted.calls.get('task_1')).toBeUndefined();
  });

  // Every statement is a row written and billed on a Durable Object: a call pays for what it keeps.
  const logging = (storage: RunStorage, ops: string[]): RunStorage => ({
    get: (key) => storage.get(key),
    list: (options) => storage.list(options),
    put(key, value) {
      ops.push(`put ${key}`);
      storage.put(key, value);
    },
    delete(key) {
      ops.push(`delete ${key}`);
      return storage.delete(key);
    },
  });
  const working = (id: string, extra: object = {}) =>
    ({ toolCallId: id, tool: 't', status: 'working', startedAt: 1, updatedAt: 1, ...extra }) as CallRecord;
  const completed = (id: string) => ({ ...working(id), status: 'completed', updatedAt: 2 }) as CallRecord;

  it('files a new call in three writes (open, settled, the open one deleted), looking for no pieces', () => {
    const ops: string[] = [];
    const log = new RunLog(logging(createMemoryRunStorage(), ops), 10);
    log.newCall('c1');
    log.calls.put(working('c1'));
    log.calls.put(working('c1', { updatedAt: 5 }));
    log.calls.put(completed('c1'));
    expect(ops).toEqual(['put o:c1', 'put o:c1', 'put c:c1', 'delete o:c1']);
  });

  it('an open record kept in pieces leaves none behind when it is replaced whole or settles', () => {
    const storage = refusingBig();
    const log = new RunLog(storage, 10);
    const args = { text: 'x'.repeat(600_000) };
    log.calls.put(working('c1', { args }));
    expect([...storage.list({ prefix: 'o:' })].length).toBeGreaterThan(1);
    log.calls.put(working('c1'));
    expect([...storage.list({ prefix: 'o:' })].map(([key]) => key)).toEqual(['o:c1']);
    log.calls.put(working('c1', { args }));
    log.calls.put(completed('c1'));
    expect([...storage.list({})].map(([key]) => key)).toEqual(['c:c1']);
    // So for a host that finds such a record after a restart.
    log.calls.put(working('c2', { args }));
    const restarted = new RunLog(storage, 10);
    restarted.calls.put(completed('c2'));
    expect([...storage.list({})].map(([key]) => key)).toEqual(['c:c1', 'c:c2']);
  });
});
