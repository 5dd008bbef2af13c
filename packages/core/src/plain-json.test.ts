import { describe, expect, it } from 'vitest';
import { plainJson } from './plain-json.js';

describe('plainJson', () => {
  it('writes JSON values as JSON.stringify does', () => {
    const value = { a: [1, 'two', null, true], b: { c: 1.5 }, d: new Date(0) };
    expect(plainJson(value)).toBe(JSON.stringify(value));
    expect(plainJson('text')).toBe('"text"');
    expect(plainJson(undefined)).toBe('null');
  });

  it('writes a bigint as its digits, a Map as an object and a Set as an array, at any depth', () => {
    const value = {
      big: 2n ** 70n,
      map: new Map<string, unknown>([['a', new Set([1n])]]),
      list: [new Set()],
    };
    expect(JSON.parse(plainJson(value))).toEqual({
      big: '1180591620717411303424',
      map: { a: ['1'] },
      list: [[]],
    });
  });

  it('writes a value met again inside itself as "[cycle]", and the same value met twice side by side in full', () => {
    const shared = { n: 1 };
    const loop: Record<string, unknown> = { shared, again: shared, list: [] as unknown[] };
    loop.self = loop;
    (loop.list as unknown[]).push(loop, shared);
    const map = new Map<string, unknown>();
    map.set('me', map);
    expect(JSON.parse(plainJson({ loop, map }))).toEqual({
      loop: { shared: { n: 1 }, again: { n: 1 }, list: ['[cycle]', { n: 1 }], self: '[cycle]' },
      map: { me: '[cycle]' },
    });
  });
});
