import { describe, expect, it } from 'vitest';
import { createMemoryRunStorage, type RunStorage } from './run-storage.js';
import { deleteValue, getValue, listValues, putValue, replaceValue } from './stored-values.js';

// A storage that refuses what a Durable Object refuses: a value over 2 MB (measured here as JSON).
// big-values.test.ts meets the real limit in workerd.
function limitedStorage(options: { failAfterPuts?: number } = {}) {
  const storage = createMemoryRunStorage();
  let puts = 0;
  const limited: RunStorage = {
    ...storage,
    put(key, value) {
      if (JSON.stringify(value).length > 2_000_000) throw new Error('string or blob too big: SQLITE_TOOBIG');
      if (options.failAfterPuts !== undefined && ++puts > options.failAfterPuts)
        throw new Error('SQLITE_FULL');
      storage.put(key, value);
    },
  };
  return limited;
}
const keys = (storage: RunStorage) => [...storage.list({})].map(([key]) => key);
const big = { text: 'y'.repeat(3 * 1024 * 1024), n: 1 };

describe('values of any size in a run storage', () => {
  it('keeps a value that fits under its key alone, and one that does not in pieces right after it', () => {
    const storage = limitedStorage();
    putValue(storage, 'a:1', { small: true });
    putValue(storage, 'a:2', big);
    putValue(storage, 'a:3', { small: true });
    expect(keys(storage)).toEqual([
      'a:1',
      'a:2',
      ...Array.from({ length: 12 }, (_, i) => `a:2#${String(i + 1).padStart(6, '0')}`),
      'a:3',
    ]);
    expect(getValue(storage, 'a:2')).toEqual(big);
    expect(getValue(storage, 'a:1')).toEqual({ small: true });
    expect(getValue(storage, 'a:9')).toBeUndefined();
  });

  it('lists each value once and whole, also from a start inside the selection', () => {
    const storage = limitedStorage();
    for (const [key, value] of [
      ['e:1', { n: 1 }],
      ['e:2', big],
      ['e:3', { n: 3 }],
      ['f:1', big],
    ] as const)
      putValue(storage, key, value);
    expect([...listValues(storage, { prefix: 'e:' })]).toEqual([
      ['e:1', { n: 1 }],
      ['e:2', big],
      ['e:3', { n: 3 }],
    ]);
    expect([...listValues(storage, { prefix: 'e:', start: 'e:2' })].map(([key]) => key)).toEqual([
      'e:2',
      'e:3',
    ]);
    // A start between a value's key and its pieces: the pieces alone are not a value.
    expect([...listValues(storage, { prefix: 'e:', start: 'e:2#000003' })].map(([key]) => key)).toEqual([
      'e:3',
    ]);
  });

  it('deletes a value with its pieces, and says whether it was there', () => {
    const storage = limitedStorage();
    putValue(storage, 'a:1', big);
    putValue(storage, 'a:2', { n: 2 });
    expect(deleteValue(storage, 'a:1')).toBe(true);
    expect(deleteValue(storage, 'a:1')).toBe(false);
    expect(keys(storage)).toEqual(['a:2']);
  });

  it('a storage that fails while the pieces are written: throws what it threw and leaves nothing behind', () => {
    const storage = limitedStorage({ failAfterPuts: 5 });
    expect(() => putValue(storage, 'a:1', big)).toThrow('SQLITE_FULL');
    expect(keys(storage)).toEqual([]);
    expect(getValue(storage, 'a:1')).toBeUndefined();
  });

  it('a storage that fails for another reason than size: a value that fits is not tried in pieces', () => {
    const storage = limitedStorage({ failAfterPuts: 0 });
    expect(() => putValue(storage, 'a:1', { small: true })).toThrow('SQLITE_FULL');
    expect(keys(storage)).toEqual([]);
  });

  it('replaces a value in place: a smaller one leaves no pieces of the one before, a bigger one is kept whole', () => {
    const storage = limitedStorage();
    putValue(storage, 'run', big);
    replaceValue(storage, 'run', { small: true });
    expect(keys(storage)).toEqual(['run']);
    expect(getValue(storage, 'run')).toEqual({ small: true });
    replaceValue(storage, 'run', big);
    expect(getValue(storage, 'run')).toEqual(big);
    replaceValue(storage, 'run', { ...big, n: 2 });
    expect(getValue(storage, 'run')).toEqual({ ...big, n: 2 });
    expect(keys(storage)).toHaveLength(13);
  });

  it('a replacement the storage refuses for another reason than size leaves the value before', () => {
    const storage = limitedStorage({ failAfterPuts: 1 });
    putValue(storage, 'run', { n: 1 });
    expect(() => replaceValue(storage, 'run', { n: 2 })).toThrow('SQLITE_FULL');
    expect(getValue(storage, 'run')).toEqual({ n: 1 });
  });

  it('keeps what JSON cannot say as plainJson says it, once in pieces', () => {
    const storage = limitedStorage();
    putValue(storage, 'a:1', { ...big, count: 10n, seen: new Set(['x']) });
    expect(getValue(storage, 'a:1')).toEqual({ ...big, count: '10', seen: ['x'] });
  });
});
