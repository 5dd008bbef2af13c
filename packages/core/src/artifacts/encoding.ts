import { ToolctxError } from '../errors.js';
import type { ArtifactData, ArtifactEncoding, JsonValue } from './types.js';

/**
 * The media type an artifact gets when `put` names none, per encoding.
 */
export function defaultMediaType(encoding: ArtifactEncoding): string {
  if (encoding === 'text') return 'text/plain; charset=utf-8';
  if (encoding === 'json') return 'application/json';
  return 'application/octet-stream';
}

function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array || Object.prototype.toString.call(value) === '[object Uint8Array]';
}

/** Walks a value and names the first place that JSON could not carry faithfully. */
function findNonJson(value: unknown, path: string, seen: Set<object>): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} is ${value}`;
  if (value === undefined) return `${path} is undefined`;
  if (typeof value !== 'object') return `${path} is a ${typeof value}`;
  if (seen.has(value)) return `${path} is a cycle`;
  seen.add(value);
  const proto = Object.getPrototypeOf(value);
  let problem: string | null = null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && !problem; i++) problem = findNonJson(value[i], `${path}[${i}]`, seen);
  } else if (proto === Object.prototype || proto === null) {
    for (const [key, inner] of Object.entries(value)) {
      problem = findNonJson(inner, `${path}.${key}`, seen);
      if (problem) break;
    }
  } else {
    problem = `${path} is a ${value.constructor?.name ?? 'class instance'}`;
  }
  seen.delete(value);
  return problem;
}

/**
 * The bytes a store keeps for a payload, and its encoding: a string is UTF-8 `text`, a
 * Uint8Array is `binary` (copied), anything else must be a JSON value and is stored as
 * `JSON.stringify(value)` in UTF-8. So every store computes the same digest for the same data.
 * Throws `invalid-argument` for values JSON cannot carry (undefined, functions, NaN, class
 * instances, cycles).
 *
 * @example
 * ```ts
 * import { encodeArtifactData } from '@toolctx/core/ports';
 * encodeArtifactData({ a: 1 }); // { encoding: 'json', bytes: Uint8Array of '{"a":1}' }
 * ```
 */
export function encodeArtifactData(data: ArtifactData): { encoding: ArtifactEncoding; bytes: Uint8Array } {
  if (typeof data === 'string') return { encoding: 'text', bytes: new TextEncoder().encode(data) };
  if (isBytes(data)) return { encoding: 'binary', bytes: new Uint8Array(data) };
  const problem = findNonJson(data, 'data', new Set());
  if (problem) {
    throw new ToolctxError(
      'invalid-argument',
      `Artifact data must be a string, a Uint8Array or a JSON value, but ${problem}. Convert it first (for example to a string or plain object).`,
    );
  }
  return { encoding: 'json', bytes: new TextEncoder().encode(JSON.stringify(data)) };
}

/**
 * The payload back from stored bytes, in the encoding it was put with. Binary payloads are
 * `bytes` itself, not a copy: pass bytes nobody else holds (a store's fresh read).
 *
 * @example
 * ```ts
 * import { decodeArtifactData } from '@toolctx/core/ports';
 * decodeArtifactData('text', new TextEncoder().encode('hi')); // 'hi'
 * ```
 */
export function decodeArtifactData(encoding: ArtifactEncoding, bytes: Uint8Array): ArtifactData {
  if (encoding === 'binary') return bytes;
  const text = new TextDecoder().decode(bytes);
  return encoding === 'json' ? (JSON.parse(text) as JsonValue) : text;
}
