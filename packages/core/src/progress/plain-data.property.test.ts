import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainDataProblem } from './plain-data.js';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

// Leaves structuredClone refuses (functions, symbols, promises, weak collections, streams) and a
// class instance, which it accepts but flattens: the check refuses it on purpose (see below).
const refusedByClone = fc.constantFrom<unknown>(
  () => 1,
  Symbol('s'),
  Promise.resolve(1),
  new WeakMap(),
  new WeakSet(),
  new ReadableStream(),
);
const classInstance = fc.constant<unknown>(new Point(1, 2));
const cloneableLeaf = fc.oneof(
  fc.anything({
    maxDepth: 1,
    withBigInt: true,
    withDate: true,
    withTypedArray: true,
    withMap: true,
    withSet: true,
  }),
  fc.constantFrom<unknown>(
    new Date(0),
    /x+/g,
    new ArrayBuffer(4),
    new Uint8Array([1, 2]),
    new DataView(new ArrayBuffer(2)),
  ),
);

/** Plain structures (arrays, objects, Maps, Sets) around leaves that are sometimes hostile. */
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: cloneableLeaf },
    { weight: 1, arbitrary: refusedByClone },
    { weight: 1, arbitrary: classInstance },
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 3 }),
    fc.array(tie('value'), { maxLength: 2 }).map((items) => new Set(items)),
    fc.array(fc.tuple(tie('value'), tie('value')), { maxLength: 2 }).map((entries) => new Map(entries)),
  ),
}));

function cloneThrows(input: unknown): boolean {
  try {
    structuredClone(input);
    return false;
  } catch {
    return true;
  }
}

/** A leaf structuredClone keeps but JSON would not carry faithfully, or a Map keyed by an object. */
function holdsRefusedLeaf(input: unknown, seen = new Set<unknown>()): boolean {
  if (input === null || typeof input !== 'object' || seen.has(input)) return false;
  seen.add(input);
  if (input instanceof Point || input instanceof RegExp) return true;
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) return true;
  if (
    input instanceof Map &&
    [...input.keys()].some((key) => typeof key !== 'string' && typeof key !== 'number')
  )
    return true;
  const children =
    input instanceof Map
      ? [...input.keys(), ...input.values()]
      : input instanceof Set
        ? [...input]
        : Object.values(input);
  return children.some((child) => holdsRefusedLeaf(child, seen));
}

describe('plainDataProblem agrees with structuredClone (property)', () => {
  it('whatever it accepts, structuredClone accepts', () => {
    fc.assert(
      fc.property(value, (input) => {
        if (plainDataProblem(input) === undefined) expect(cloneThrows(input)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('whatever structuredClone throws on, it rejects, naming where', () => {
    fc.assert(
      fc.property(value, (input) => {
        if (cloneThrows(input)) expect(plainDataProblem(input)).toMatch(/ at /);
      }),
      { numRuns: 1000 },
    );
  });

  it('is stricter on purpose: a class instance, a RegExp, bytes and object-keyed Maps clone, but would not arrive as they were sent, so they are refused', () => {
    fc.assert(
      fc.property(value, (input) => {
        const problem = plainDataProblem(input);
        if (problem !== undefined && !cloneThrows(input)) {
          // The only values it refuses that structuredClone takes hold one of those leaves.
          expect(holdsRefusedLeaf(input)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
    expect(cloneThrows(new Point(1, 2))).toBe(false);
    expect(Object.getPrototypeOf(structuredClone(new Point(1, 2)))).toBe(Object.prototype);
    expect(plainDataProblem(new Point(1, 2))).toBe('an instance of Point at the top (send plain data)');
  });

  it('agrees on cycles: both keep them', () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    cyclic.self = cyclic;
    (cyclic.a as unknown[]).push(cyclic);
    expect(plainDataProblem(cyclic)).toBeUndefined();
    expect(cloneThrows(cyclic)).toBe(false);
  });
});
