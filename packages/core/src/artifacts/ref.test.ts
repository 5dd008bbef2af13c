import { describe, expect, it } from 'vitest';
import { isRef, newRef } from './ref.js';

describe('newRef and isRef', () => {
  it('makes art_ + 22 base62 characters that isRef accepts', () => {
    const ref = newRef();
    expect(ref).toMatch(/^art_[0-9A-Za-z]{22}$/);
    expect(isRef(ref)).toBe(true);
  });

  it('uses every base62 digit roughly evenly (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++)
      for (const char of newRef().slice(4)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 44,000 draws: about 710 per digit; a bias towards the first digits would push them past 1,000.
    for (const [char, count] of counts) expect(count, char).toBeGreaterThan(450);
    for (const [char, count] of counts) expect(count, char).toBeLessThan(1_000);
  });

  it('rejects anything else', () => {
    for (const value of [
      '',
      'art_',
      'art_short',
      `art_${'a'.repeat(23)}`,
      `art_${'a'.repeat(21)}!`,
      42,
      null,
      `ART_${'a'.repeat(22)}`,
    ]) {
      expect(isRef(value), String(value)).toBe(false);
    }
  });
});
