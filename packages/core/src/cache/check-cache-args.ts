import { ToolctxError } from '../errors.js';

/**
 * Refuses a cache key that is not a string, for every `CachePort` implementation.
 *
 * @example
 * ```ts
 * import { checkCacheKey } from '@toolctx/core/ports';
 * checkCacheKey('tc1_abc'); // 'tc1_abc'
 * ```
 */
export function checkCacheKey(key: unknown): string {
  if (typeof key !== 'string') {
    throw new ToolctxError(
      'invalid-argument',
      `A cache key must be a string, got ${typeof key}. Use toolCacheKey().`,
    );
  }
  return key;
}

/**
 * Refuses a cache value that is not bytes, or a `ttlMs` that is not above zero.
 *
 * @example
 * ```ts
 * import { checkCacheEntry } from '@toolctx/core/ports';
 * checkCacheEntry(new Uint8Array([1]), 60_000); // fine
 * ```
 */
export function checkCacheEntry(value: unknown, ttlMs: unknown): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new ToolctxError(
      'invalid-argument',
      'A cache value must be a Uint8Array; encode text with TextEncoder.',
    );
  }
  if (!(typeof ttlMs === 'number' && ttlMs > 0)) {
    throw new ToolctxError('invalid-argument', `A cache entry needs "ttlMs" > 0, got ${String(ttlMs)}.`);
  }
}
