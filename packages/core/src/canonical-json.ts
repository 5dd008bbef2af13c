/**
 * JSON with object keys sorted at every depth, so equal values give equal text whatever order
 * their keys were written in. Used for argument hashes (approval) and cache keys.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

/**
 * The SHA-256 of text or bytes, as lowercase hex (Web Crypto, so it runs everywhere).
 *
 * @example
 * ```ts
 * import { sha256Hex } from '@toolctx/core/ports';
 * await sha256Hex('abc'); // 'ba7816bf…'
 * ```
 */
export function sha256Hex(data: string | Uint8Array): Promise<string> {
  // A promise chain rather than an async function: a store's put and get each make a digest,
  // and each async frame costs them a turn of the microtask queue.
  try {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    return sha256(bytes).then(hexOf);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The SHA-256 of bytes, as the 32 bytes themselves. */
export const sha256 = (bytes: Uint8Array): Promise<ArrayBuffer> =>
  crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);

/** Whether two 32-byte digests are equal, compared a word at a time. */
export function sameDigest(a: ArrayBuffer, b: ArrayBuffer): boolean {
  const x = new Uint32Array(a);
  const y = new Uint32Array(b);
  for (let i = 0; i < 8; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** A digest as lowercase hex. */
export const hexOf = (digest: ArrayBuffer): string => {
  const hash = new Uint8Array(digest);
  let hex = '';
  for (let i = 0; i < hash.length; i++) hex += HEX[hash[i]!];
  return hex;
};

// Two hex digits per byte value, so a digest's 32 bytes become text without a call per byte.
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
