import { describe, expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';
import { cutUtf8, utf8Bytes } from './cut-utf8.js';
import { splitBudget } from './split-budget.js';
import { toTranscript } from './to-transcript.js';

describe('splitBudget', () => {
  it('gives equal shares rounded down', () => {
    expect(splitBudget(10_000, 3)).toBe(3_333);
    expect(splitBudget(10, 1)).toBe(10);
    expect(splitBudget(0, 4)).toBe(0);
    expect(splitBudget(Number.POSITIVE_INFINITY, 4)).toBe(Number.POSITIVE_INFINITY);
  });

  it('refuses nonsense', () => {
    for (const [total, count] of [
      [-1, 1],
      [Number.NaN, 1],
      [1.5, 1],
      [10, 0],
      [10, 1.5],
    ]) {
      expect(() => splitBudget(total!, count!), `${total}/${count}`).toThrow(ToolctxError);
    }
  });
});

describe('toTranscript', () => {
  it('keeps strings and writes everything else as JSON', () => {
    expect(toTranscript('as is "quoted"')).toBe('as is "quoted"');
    expect(toTranscript({ b: [1, null] })).toBe('{"b":[1,null]}');
    expect(toTranscript(42)).toBe('42');
    expect(toTranscript(null)).toBe('null');
    expect(toTranscript(undefined)).toBe('');
    expect(toTranscript({ big: 10n })).toBe('{"big":"10"}');
    expect(toTranscript(new Uint8Array(3))).toBe('[3 bytes of binary data]');
  });

  it('never throws on a value JSON cannot write', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(toTranscript(cycle)).toBe('[Object value that cannot be written as JSON]');
  });
});

describe('cutUtf8', () => {
  it('cuts at code point boundaries', () => {
    expect(cutUtf8('héllo', 2)).toBe('h');
    expect(cutUtf8('héllo', 3)).toBe('hé');
    expect(cutUtf8('😀😀', 7)).toBe('😀');
    expect(cutUtf8('abc', 10)).toBe('abc');
    expect(cutUtf8('abc', 0)).toBe('');
  });

  it('keeps combining marks with their letter', () => {
    const text = 'e\u0301'.repeat(20);
    for (let max = 0; max < 60; max++) {
      const kept = cutUtf8(text, max);
      expect(kept.length % 2, `max ${max}`).toBe(0);
      expect(utf8Bytes(kept)).toBeLessThanOrEqual(max);
    }
  });
});
