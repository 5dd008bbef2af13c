// Formatters are costly to make and cheap to reuse: one per locale and number of decimals.
const formatters = new Map<string, Intl.NumberFormat>();

function format(value: number, locale: string | undefined, digits = 3): string {
  const key = `${locale}|${digits}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.NumberFormat(locale, { maximumFractionDigits: digits });
    formatters.set(key, made);
  }
  return made.format(value);
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
  return format(value, locale);
}

/**
 * Formats a duration in milliseconds, the one way every status text does: `0.4 s`, `12 s`,
 * `1 min 3 s`, `1 h 2 min`. Numbers follow `locale` (`0,4 s` in German); the units are the SI
 * symbols, which read the same in every language the templates ship and, unlike `Intl`'s unit
 * names, the same in every runtime's ICU. With `precise`, a duration under ten seconds keeps a
 * tenth (a hundredth under a tenth of a second), which suits a finished call; a running clock
 * counts whole seconds. Values are cut, never rounded up: `59.9 s` reads `59 s`, not `60 s`.
 *
 * @example
 * ```ts
 * import { formatDuration } from '@toolctx/core/status';
 * formatDuration(12_400, 'en'); // '12 s'
 * formatDuration(63_000, 'en'); // '1 min 3 s'
 * formatDuration(420, 'de', true); // '0,4 s'
 * ```
 */
export function formatDuration(ms: number, locale?: string, precise = false): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) {
    // Hundredths under a tenth of a second (0.04 s), else tenths under ten (9.9 s): cut, not rounded.
    const per = !precise || seconds >= 10 ? 1 : seconds < 0.1 ? 100 : 10;
    return `${format(Math.floor(seconds * per + 1e-9) / per, locale, 2)} s`;
  }
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const [big, small, unit, rest] = hours
    ? [hours, minutes % 60, 'h', 'min']
    : [minutes, Math.floor(seconds % 60), 'min', 's'];
  return `${format(big, locale)} ${unit}${small ? ` ${format(small, locale)} ${rest}` : ''}`;
}
