import { ToolctxError } from '../errors.js';

const CURSOR = /^cur_([A-Za-z0-9_-]+)$/;

/** A list cursor for a driver's position: `cur_` and the position in base64url, opaque to callers. */
export function encodeListCursor(position: string): string {
  const binary = String.fromCharCode(...new TextEncoder().encode(position));
  return `cur_${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}

/** The driver's position in a cursor made by {@link encodeListCursor}; throws `invalid-argument` for any other. */
export function decodeListCursor(cursor: unknown): string {
  const match = typeof cursor === 'string' ? CURSOR.exec(cursor) : null;
  if (match) {
    try {
      const binary = atob(match[1]!.replaceAll('-', '+').replaceAll('_', '/'));
      return new TextDecoder('utf-8', { fatal: true }).decode(
        Uint8Array.from(binary, (char) => char.charCodeAt(0)),
      );
    } catch {
      // Falls through to the refusal.
    }
  }
  throw unknownCursor(cursor);
}

/** The refusal of a cursor this store did not make. */
export function unknownCursor(cursor: unknown): ToolctxError {
  return new ToolctxError(
    'invalid-argument',
    `The list cursor ${JSON.stringify(cursor)} was not made by this store. Pass the cursor of the previous page as is, or none to start over.`,
  );
}
