const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A random id: `prefix` then 22 base62 characters (about 131 bits) from Web Crypto. Ids are never
 * derived from content, so they reveal nothing and cannot be guessed.
 */
export function randomId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(22));
  let id = prefix;
  // 256 is not a multiple of 62; the bias is below 1% per character, irrelevant for 131 bits.
  for (const byte of bytes) id += ALPHABET[byte % 62];
  return id;
}
