const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const REF_LENGTH = 22;
const REF_PATTERN = /^art_[0-9A-Za-z]{22}$/;
// 248 is the largest multiple of 62 below 256: bytes at or above it are drawn again, so every
// base62 digit is equally likely (no modulo bias). 22 digits carry about 131 bits.
const UNBIASED_LIMIT = 248;

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
  let ref = 'art_';
  const pool = new Uint8Array(32);
  while (ref.length < 4 + REF_LENGTH) {
    crypto.getRandomValues(pool);
    for (const byte of pool) {
      if (byte >= UNBIASED_LIMIT) continue;
      ref += BASE62[byte % 62];
      if (ref.length === 4 + REF_LENGTH) break;
    }
  }
  return ref;
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
