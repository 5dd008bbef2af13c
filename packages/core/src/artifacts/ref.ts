import { randomId } from '../random-id.js';

const REF_PATTERN = /^art_[0-9A-Za-z]{22}$/;

/**
 * A fresh artifact ref: `art_` and 22 base62 characters from `crypto.getRandomValues`. Never
 * derived from content or scope, so a ref reveals nothing and cannot be guessed.
 *
 * @example
 * ```ts
 * import { newRef } from '@toolctx/core/ports';
 * newRef(); // 'art_4fV0q…' (26 characters)
 * ```
 */
export function newRef(): string {
  return randomId('art_');
}

/**
 * Whether `value` has the shape of an artifact ref (it may still name nothing).
 *
 * @example
 * ```ts
 * import { isRef } from '@toolctx/core/ports';
 * isRef('art_0123456789abcdefghijkl'); // true
 * isRef('../etc/passwd'); // false
 * ```
 */
export function isRef(value: unknown): value is string {
  return typeof value === 'string' && REF_PATTERN.test(value);
}
