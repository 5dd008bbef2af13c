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
  for (let n = 0; n < ID_LENGTH; ) {
    if (used === pool.length) {
      crypto.getRandomValues(pool);
      used = 0;
    }
    const byte = pool[used++]!;
    if (byte < UNBIASED_LIMIT) digits[n++] = BASE62_CODES[byte % 62]!;
  }
  return prefix + String.fromCharCode.apply(null, digits);
}

// The digits' character codes, made into a string in one step rather than 22 concatenations
// (each a call of its own until the engine optimizes the loop, which a store's put meets first).
const BASE62_CODES = Array.from(BASE62, (digit) => digit.charCodeAt(0));
const digits: number[] = new Array(ID_LENGTH).fill(0);
