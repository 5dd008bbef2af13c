import { describe, expect, it } from 'vitest';
import { plainDataLimits, plainDataProblem } from './plain-data.js';

/** An array nested `depth` brackets deep, built without recursion, as parsing hostile JSON gives. */
function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('plainDataProblem', () => {
  it('holds the documented bounds: 64 deep and 4 MiB', () => {
    expect(plainDataLimits).toEqual({ maxDepth: 64, maxBytes: 4_194_304 });
  });

  it('accepts data nested 64 deep and refuses 65, naming the bound and where', () => {
    expect(plainDataProblem(nested(64))).toBeUndefined();
    expect(plainDataProblem({ a: nested(63) })).toBeUndefined();
    expect(plainDataProblem(nested(65))).toMatch(/^data nested more than 64 deep at (\[0\]){64} /);
  });

  it('refuses data nested 100,000 deep without overflowing the stack', () => {
    expect(plainDataProblem(nested(100_000))).toMatch(/nested more than 64 deep/);
    let object: Record<string, unknown> = {};
    const top = object;
    for (let i = 0; i < 100_000; i++) object = object.next = {};
    expect(plainDataProblem(top)).toMatch(/^data nested more than 64 deep at (\.next){64} /);
  });

  it('refuses more than maxBytes, and a 2 MiB string fits', () => {
    expect(plainDataProblem({ text: 'x'.repeat(2 * 1024 * 1024) })).toBeUndefined();
    expect(plainDataProblem({ text: 'x'.repeat(4 * 1024 * 1024) })).toMatch(
      /^more than 4194304 bytes of data \(at \.text; save it as an artifact/,
    );
    expect(plainDataProblem(['x'.repeat(600)], { maxDepth: 64, maxBytes: 500 })).toMatch(
      /^more than 500 bytes/,
    );
  });

  it('bounds the work on shared references: 2^40 paths through 40 shared arrays are refused by size', () => {
    let value: unknown = 'leaf';
    for (let i = 0; i < 40; i++) value = [value, value];
    // JSON would write 2^40 leaves; the walk stops once past the size bound.
    expect(plainDataProblem(value)).toMatch(/^more than 4194304 bytes/);
  });

  it('refuses what JSON would not carry faithfully, naming where and the fix', () => {
    expect(plainDataProblem({ when: /x+/g })).toBe(
      'a RegExp at .when (JSON would write it as {}; send its source text)',
    );
    expect(plainDataProblem({ page: new Uint8Array(1024 * 1024) })).toMatch(
      /^binary data at \.page \(JSON would write every byte as a key; save bytes with ctx\.artifacts\.put/,
    );
    expect(plainDataProblem([new ArrayBuffer(8)])).toMatch(/^binary data at \[0\]/);
    expect(plainDataProblem({ byKey: new Map([[{ id: 1 }, 'a']]) })).toBe(
      'a Map keyed by an object at .byKey (JSON keys are text; send an array of entries)',
    );
  });

  it('carries what plainJson writes: a bigint, a Date, a string- or number-keyed Map, a Set and a cycle', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    const value = {
      big: 2n ** 70n,
      at: new Date(0),
      map: new Map<unknown, unknown>([
        ['a', 1],
        [2, 'b'],
      ]),
      set: new Set([1]),
      loop,
    };
    expect(plainDataProblem(value)).toBeUndefined();
  });

  it('as a result: a Map or a Set is refused (JSON.stringify writes {}), a class instance is left to its toJSON', () => {
    const asResult = { maxDepth: 64, result: true };
    expect(plainDataProblem({ m: new Map() }, asResult)).toBe(
      'a Map at .m (JSON would write it as {}; return an object or an array)',
    );
    expect(plainDataProblem([new Set()], asResult)).toMatch(/^a Set at \[0\]/);
    expect(plainDataProblem({ url: new URL('https://example.com') }, asResult)).toBeUndefined();
    expect(plainDataProblem({ url: new URL('https://example.com') })).toMatch(/^an instance of URL at \.url/);
    expect(plainDataProblem(nested(65), asResult)).toMatch(/nested more than 64 deep/);
  });

  it('names symbols and functions where they are', () => {
    expect(plainDataProblem({ a: [1, () => 1] })).toBe('a function at .a[1]');
    expect(plainDataProblem(Symbol('s'))).toBe('a symbol at the top');
    expect(plainDataProblem({ [Symbol('s')]: 1 })).toBe('a symbol-keyed property at the top');
  });
});
