// Formatters are costly to make and cheap to reuse: one per locale and shape.
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: string | undefined, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale}|${options.maximumFractionDigits}|${options.maximumSignificantDigits}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.NumberFormat(locale, options);
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
 * Formats a duration in milliseconds, the one way every status text does: `0.4 s`, `12 s`,
 * `1 min 3 s`, `1 h 2 min`. Numbers follow `locale` (`0,4 s` in German); the units are the SI
 * symbols, which read the same in every language the templates ship and, unlike `Intl`'s unit
 * names, the same in every runtime's ICU. With `precise`, a duration under ten seconds keeps a
 * tenth (one significant digit under a second), which suits a finished call; a running clock
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
  const whole = formatter(locale, { maximumFractionDigits: 0 });
  if (seconds < 60) {
    if (!precise || seconds >= 10) return `${whole.format(Math.floor(seconds))} s`;
    // One significant digit under a second (0.04 s, nothing finer than 0.01 s), one decimal up to
    // ten (9.9 s), both cut.
    const step = seconds < 1 ? Math.max(0.01, 10 ** Math.floor(Math.log10(seconds))) : 0.1;
    const cut = Math.floor(seconds / step + 1e-9) * step;
    return `${formatter(locale, { maximumSignificantDigits: seconds < 1 ? 1 : 2 }).format(cut)} s`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const rest = Math.floor(seconds % 60);
    return rest ? `${whole.format(minutes)} min ${whole.format(rest)} s` : `${whole.format(minutes)} min`;
  }
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${whole.format(hours)} h ${whole.format(rest)} min` : `${whole.format(hours)} h`;
}
