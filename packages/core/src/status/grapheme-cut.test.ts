import { describe, expect, it } from 'vitest';
import { cutMessage } from './grapheme-cut.js';

const graphemes = (text: string) => [
  ...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text),
];

describe('cutMessage', () => {
  it('leaves a message at or under the limit as it is, trimmed', () => {
    expect(cutMessage('  Reading page 3 of 9  ')).toBe('Reading page 3 of 9');
    expect(cutMessage('x'.repeat(120))).toBe('x'.repeat(120));
  });

  it('cuts at 120 graphemes and states how many more there were', () => {
    expect(cutMessage('x'.repeat(130))).toBe(`${'x'.repeat(120)}… (+10 more)`);
  });

  it.each([
    ['an emoji with a skin tone', '👍🏽'],
    ['a ZWJ family', '👨‍👩‍👧‍👦'],
    ['a flag', '🇳🇱'],
    ['combining marks', 'e\u0301\u0302'],
    ['a Hangul syllable from jamo', '\u1100\u1161\u11a8'],
  ])('never splits %s across the boundary', (_what, cluster) => {
    for (let prefix = 117; prefix <= 120; prefix++) {
      const message = 'a'.repeat(prefix) + cluster.repeat(10);
      const cut = cutMessage(message);
      const kept = cut.slice(0, cut.indexOf('…'));
      expect(graphemes(kept).length).toBe(120);
      expect(kept.startsWith('a'.repeat(prefix))).toBe(true);
      expect(kept.slice(prefix)).toBe(cluster.repeat(120 - prefix));
      expect(cut.endsWith(`(+${prefix + 10 - 120} more)`)).toBe(true);
    }
  });

  it('counts graphemes, not code units, against the limit', () => {
    const family = '👨‍👩‍👧‍👦'.repeat(100); // 100 graphemes, 1,100 code units
    expect(cutMessage(family)).toBe(family);
  });

  it('takes a custom limit', () => {
    expect(cutMessage('abcdef', 3)).toBe('abc… (+3 more)');
  });
});
