import { ToolctxError } from '@toolctx/core';

/**
 * Where a listing stopped: KV's own cursor for the next page, and the order key of the last entry
 * passed. KV cursors are opaque, so the order key is kept too: entries at or before it are
 * dropped when the next page is read, so a page can never repeat what an earlier one showed.
 */
export interface ListPosition {
  kv: string;
  after: string;
}

const CURSOR = /^kvr2_([A-Za-z0-9_-]+)$/;

function toBase64Url(text: string): string {
  const binary = String.fromCharCode(...new TextEncoder().encode(text));
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(encoded: string): string {
  const binary = atob(encoded.replaceAll('-', '+').replaceAll('_', '/'));
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
    Uint8Array.from(binary, (char) => char.charCodeAt(0)),
  );
}

export function encodeCursor(position: ListPosition): string {
  return `kvr2_${toBase64Url(JSON.stringify([position.kv, position.after]))}`;
}

export function decodeCursor(cursor: unknown): ListPosition {
  const match = typeof cursor === 'string' ? CURSOR.exec(cursor) : null;
  if (match) {
    try {
      const parsed: unknown = JSON.parse(fromBase64Url(match[1]!));
      if (Array.isArray(parsed) && parsed.length === 2) {
        const [kv, after] = parsed as unknown[];
        if (typeof kv === 'string' && typeof after === 'string') return { kv, after };
      }
    } catch {
      // Falls through to the error below.
    }
  }
  throw new ToolctxError(
    'invalid-argument',
    `The list cursor ${JSON.stringify(cursor)} was not made by this store. Pass the cursor of the previous page as is, or none to start over.`,
  );
}
