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
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (let i = 0; i < hash.length; i++) hex += HEX[hash[i]!];
  return hex;
}

// Two hex digits per byte value, so a digest's 32 bytes become text without a call per byte.
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
