import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutMessage } from './grapheme-cut.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (text: string) => [...segmenter.segment(text)].map(({ segment }) => segment);

// Emoji sequences, combining marks, flags, Hangul jamo and surrogate pairs among plain text.
const pieces = fc.constantFrom(
  'a',
  ' ',
  'é',
  'e\u0301\u0302',
  '👨‍👩‍👧',
  '👍🏽',
  '🇫🇷',
  '\u1100\u1161\u11A8',
  '𝒳',
  '\r\n',
  '🏳️‍🌈',
);
const message = fc.oneof(
  fc.array(pieces, { maxLength: 200 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
);

describe('cutMessage (property)', () => {
  it('never splits a grapheme: the kept text is a whole-grapheme prefix of the trimmed message', () => {
    fc.assert(
      fc.property(message, fc.integer({ min: 1, max: 130 }), (text, max) => {
        const trimmed = text.trim();
        const cut = cutMessage(text, max);
        const match = /^([\s\S]*)… \(\+(\d+) more\)$/.exec(cut);
        const all = graphemes(trimmed);
        if (!match || cut === trimmed) {
          expect(cut).toBe(trimmed);
          expect(all.length).toBeLessThanOrEqual(max);
          return;
        }
        const kept = match[1]!;
        const more = Number(match[2]);
        expect(all.length).toBeGreaterThan(max);
        expect(more).toBe(all.length - max);
        // The kept text (before trimming its end) is exactly the first `max` graphemes.
        expect(all.slice(0, max).join('').trimEnd()).toBe(kept);
        expect(trimmed.startsWith(kept)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
