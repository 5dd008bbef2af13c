const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 22;
// 248 is the largest multiple of 62 below 256: bytes at or above it are drawn again, so every
// base62 digit is equally likely (no modulo bias). 22 digits carry about 131 bits.
const UNBIASED_LIMIT = 248;
// Random bytes drawn a batch at a time (as Node's randomUUID does): one getRandomValues call
// costs more than the 22 digits it would serve on its own. Filled on first use, not at import.
const pool = new Uint8Array(1024);
let used = pool.length;

/**
 * A random id: `prefix` then 22 base62 characters from `crypto.getRandomValues` (artifact refs,
 * approval ids and tokens, authorization ids). Never derived from content, so an id reveals
 * nothing and cannot be guessed.
 */
export function randomId(prefix: string): string {
  let id = prefix;
  const end = prefix.length + ID_LENGTH;
  while (id.length < end) {
    if (used === pool.length) {
      crypto.getRandomValues(pool);
      used = 0;
    }
    const byte = pool[used++]!;
    if (byte < UNBIASED_LIMIT) id += BASE62[byte % 62];
  }
  return id;
}
