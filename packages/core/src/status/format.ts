// Formatters are costly to make and cheap to reuse: one per locale and shape.
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: string | undefined, unit?: string, digits = 0): Intl.NumberFormat {
  const key = `${locale}|${unit}|${digits}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.NumberFormat(
      locale,
      unit ? { style: 'unit', unit, unitDisplay: 'narrow', maximumFractionDigits: digits } : {},
    );
    formatters.set(key, made);
  }
  return made;
}

/**
 * Formats a number for `locale` (the runtime's default locale when absent).
 *
 * @example
 * ```ts
 * import { formatNumber } from '@toolctx/core/status';
 * formatNumber(12345, 'de'); // '12.345'
 * ```
 */
export function formatNumber(value: number, locale?: string): string {
  return formatter(locale).format(value);
}

/**
 * Formats a duration in milliseconds with `Intl` units for `locale`: whole seconds under a minute,
 * then minutes and seconds. With `precise`, a duration under ten seconds keeps a tenth
 * (`0.4s`), which suits a finished call; a running clock counts whole seconds.
 *
 * @example
 * ```ts
 * import { formatDuration } from '@toolctx/core/status';
 * formatDuration(12_400, 'en'); // '12s'
 * formatDuration(75_000, 'en'); // '1m 15s'
 * formatDuration(420, 'de', true); // '0,4 Sek.'
 * ```
 */
export function formatDuration(ms: number, locale?: string, precise = false): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) {
    const fine = precise && seconds < 10;
    return formatter(locale, 'second', fine ? 1 : 0).format(fine ? seconds : Math.floor(seconds));
  }
  const minutes = Math.floor(seconds / 60);
  const rest = Math.floor(seconds % 60);
  const whole = formatter(locale, 'minute').format(minutes);
  return rest ? `${whole} ${formatter(locale, 'second').format(rest)}` : whole;
}
