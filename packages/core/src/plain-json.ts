/**
 * Plain data as JSON text. Plain data (what `structuredClone` keeps, which is what progress and
 * custom events may carry) is not always JSON, and `JSON.stringify` would throw or drop it: here a
 * bigint is written as its digits, a Map as an object of its entries, a Set as an array, and a
 * value met again inside itself (a cycle) as the string `"[cycle]"`. Dates are written as
 * `JSON.stringify` writes them (ISO text).
 *
 * @example
 * ```ts
 * import { plainJson } from '@toolctx/core/sse';
 * const loop: Record<string, unknown> = { big: 2n ** 64n, tags: new Set(['a']) };
 * loop.self = loop;
 * plainJson(loop); // '{"big":"18446744073709551616","tags":["a"],"self":"[cycle]"}'
 * ```
 */
export function plainJson(value: unknown): string {
  // The chain from the top to the object being written: what each holds (as written) and the
  // value it was written from, so a value met again below itself is a cycle.
  const holders: unknown[] = [];
  const originals: unknown[] = [];
  const text = JSON.stringify(value, function (this: unknown, _key: string, inner: unknown) {
    if (typeof inner === 'bigint') return inner.toString();
    if (typeof inner !== 'object' || inner === null) return inner;
    // `this` holds `inner`: whatever was pushed after it belongs to a finished sibling.
    while (holders.length > 0 && holders[holders.length - 1] !== this) {
      holders.pop();
      originals.pop();
    }
    if (originals.includes(inner)) return '[cycle]';
    const written =
      inner instanceof Map ? Object.fromEntries(inner) : inner instanceof Set ? [...inner] : inner;
    holders.push(written);
    originals.push(inner);
    return written;
  });
  return text ?? 'null';
}
