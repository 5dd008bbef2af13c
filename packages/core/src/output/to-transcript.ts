/**
 * The text a model reads for a tool's return value: a string as it is, anything else as compact
 * JSON. `undefined` is the empty string; bigints are written as digits; bytes as a short note
 * (they belong in an artifact); a value JSON cannot write (a cycle) as a note naming its class.
 */
export function toTranscript(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes of binary data]`;
  try {
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner === 'bigint') return inner.toString();
      if (inner instanceof Uint8Array) return `[${inner.byteLength} bytes of binary data]`;
      return inner;
    });
    return text ?? '';
  } catch {
    const name =
      typeof value === 'object' && value !== null ? (value.constructor?.name ?? 'Object') : typeof value;
    return `[${name} value that cannot be written as JSON]`;
  }
}
