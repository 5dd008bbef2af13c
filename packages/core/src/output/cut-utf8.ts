const encoder = new TextEncoder();
const WINDOW = 256;

type Segmenter = { segment(text: string): Iterable<{ index: number }> };
let segmenter: Segmenter | null | undefined;

function graphemes(): Segmenter | null {
  if (segmenter === undefined) {
    const Intl_ = Intl as unknown as { Segmenter?: new (locale?: string, options?: object) => Segmenter };
    segmenter = Intl_.Segmenter ? new Intl_.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  }
  return segmenter;
}

/** The last grapheme boundary at or before `end`, looking back a bounded window (cost O(window)). */
function graphemeBoundary(text: string, end: number): number {
  const found = graphemes();
  if (!found || end >= text.length) return end;
  let start = Math.max(0, end - WINDOW);
  const code = text.charCodeAt(start);
  if (start > 0 && code >= 0xdc00 && code <= 0xdfff) start++;
  let best = start;
  for (const { index } of found.segment(text.slice(start, Math.min(text.length, end + WINDOW)))) {
    if (start + index > end) break;
    best = start + index;
  }
  // A cluster longer than the window: the code point cut is the best safe answer.
  return best === start && start > 0 ? end : best;
}

/**
 * The longest prefix of `text` whose UTF-8 form fits `maxBytes`, never splitting a code point
 * and, where `Intl.Segmenter` exists, never splitting a grapheme (an emoji with its modifiers).
 */
export function cutUtf8(text: string, maxBytes: number): string {
  const bytes = encoder.encode(text);
  if (bytes.byteLength <= maxBytes) return text;
  let cut = Math.max(0, Math.floor(maxBytes));
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--;
  const prefix = new TextDecoder().decode(bytes.subarray(0, cut));
  return text.slice(0, graphemeBoundary(text, prefix.length));
}

/**
 * The UTF-8 size of `text` in bytes: what output budgets count.
 */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}
