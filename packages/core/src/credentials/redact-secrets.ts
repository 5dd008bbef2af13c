import { REDACTED } from './credential.js';

/**
 * `data` with every occurrence of each secret replaced by `[redacted]`: in a string, and in the
 * strings of plain data (object keys and values, arrays, Map keys and values, Set members) at any
 * depth. Containers are copied (a cycle stays a cycle of copies); anything else is kept as it is.
 * What a tool reports (`ctx.progress`, `ctx.log`, `ctx.emit`) passes through here with the
 * credential values its call holds, so none reaches an event.
 */
export function redactSecrets(data: unknown, secrets: readonly string[]): unknown {
  return copyRedacted(data, secrets, new Map());
}

function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

function copyRedacted(data: unknown, secrets: readonly string[], copies: Map<object, unknown>): unknown {
  if (typeof data === 'string') return redactText(data, secrets);
  if (typeof data !== 'object' || data === null) return data;
  if (copies.has(data)) return copies.get(data);
  const inner = (value: unknown) => copyRedacted(value, secrets, copies);
  if (Array.isArray(data)) {
    const copy: unknown[] = [];
    copies.set(data, copy);
    for (const item of data) copy.push(inner(item));
    return copy;
  }
  if (data instanceof Map) {
    const copy = new Map<unknown, unknown>();
    copies.set(data, copy);
    for (const [key, value] of data) copy.set(inner(key), inner(value));
    return copy;
  }
  if (data instanceof Set) {
    const copy = new Set<unknown>();
    copies.set(data, copy);
    for (const item of data) copy.add(inner(item));
    return copy;
  }
  const proto = Object.getPrototypeOf(data);
  if (proto !== Object.prototype && proto !== null) return data;
  const copy: Record<string, unknown> = {};
  copies.set(data, copy);
  for (const [key, value] of Object.entries(data)) copy[redactText(key, secrets)] = inner(value);
  return copy;
}
