let segmenter: Intl.Segmenter | undefined;

/**
 * Trims `message` and cuts it to `max` graphemes — what a person sees as characters, so an emoji,
 * a ZWJ family or a letter with combining marks is never split — stating the cut as `… (+N more)`.
 * The segmenter runs only for messages longer than `max` code units.
 *
 * @example
 * ```ts
 * import { cutMessage } from '@toolctx/core/status';
 * cutMessage('👨‍👩‍👧 family '.repeat(20), 10); // '👨‍👩‍👧 family … (+130 more)'
 * ```
 */
export function cutMessage(message: string, max = 120): string {
  const text = message.trim();
  if (text.length <= max) return text; // a grapheme is at least one code unit
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let kept = 0;
  let end = 0;
  let total = 0;
  for (const { index, segment } of segmenter.segment(text)) {
    total++;
    if (total <= max) {
      kept = total;
      end = index + segment.length;
    }
  }
  if (total <= max) return text;
  return `${text.slice(0, end).trimEnd()}… (+${total - kept} more)`;
}
