const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 22;
// 248 is the largest multiple of 62 below 256: bytes at or above it are drawn again, so every
// base62 digit is equally likely (no modulo bias). 22 digits carry about 131 bits.
const UNBIASED_LIMIT = 248;

/**
 * A random id: `prefix` then 22 base62 characters from `crypto.getRandomValues` (artifact refs,
 * approval ids and tokens, authorization ids). Never derived from content, so an id reveals
 * nothing and cannot be guessed.
 */
export function randomId(prefix: string): string {
  let id = prefix;
  const end = prefix.length + ID_LENGTH;
  const pool = new Uint8Array(32);
  while (id.length < end) {
    crypto.getRandomValues(pool);
    for (const byte of pool) {
      if (byte >= UNBIASED_LIMIT) continue;
      id += BASE62[byte % 62];
      if (id.length === end) break;
    }
  }
  return id;
}
