import { REDACTED } from './credential.js';

/**
 * What takes `secrets` out of whatever a call hands over: every occurrence of a secret, or of one
 * of its {@link secretForms}, is replaced by `[redacted]` — in a string, and in the strings of
 * plain data (object keys and values, arrays, Map keys and values, Set members) at any depth.
 * Containers are copied (a cycle stays a cycle of copies); anything else is kept as it is.
 * What a tool reports (`ctx.progress`, `ctx.log`, `ctx.emit`), the error it fails with and the
 * label, kind and media type of an artifact it saves pass through here with the credential values
 * its call holds, so none reaches an event, a result or a listing. The forms are worked out once,
 * here, for every report of the call.
 */
export function secretRedactor(secrets: readonly string[]): (data: unknown) => unknown {
  const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  return (data) => copyRedacted(data, forms, new Map());
}

/** A secret's bytes must be this many for the part of its base64 inside a longer text to be sought. */
const alignedMinBytes = 8;

/**
 * The forms in which a secret is sought, longest first so a whole encoding is replaced before a
 * shorter form inside it: the secret itself; URL-encoded (`encodeURIComponent`, `encodeURI`, and
 * form-encoding, which writes a space as `+`); its UTF-8 bytes in base64 and base64url, padded or
 * not. For a secret of 8 bytes or more also the middle of its base64 at each of the three
 * alignments it can have inside a longer base64 text — the characters that depend on its bytes
 * alone — so one encoded with more around it (a Basic auth header's `user:secret`) is caught too;
 * the one or two characters at each edge that mix in the neighbours' bits stay.
 */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  const forms = [secret, new URLSearchParams({ s: secret }).toString().slice(2)];
  try {
    forms.push(encodeURIComponent(secret), encodeURI(secret));
  } catch {
    // A lone surrogate has no UTF-8 form, so no URL-encoded one either.
  }
  const bytes = new TextEncoder().encode(secret);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const base64 = btoa(binary);
  const base64s = [base64, base64.replace(/=+$/, '')];
  if (bytes.length >= alignedMinBytes) {
    for (const [filler, skip] of [
      [0, 0],
      [1, 2],
      [2, 3],
    ] as const) {
      const text = btoa('\0'.repeat(filler) + binary).replace(/=+$/, '');
      // A last, partial group's final character mixes in bits of whatever follows the secret.
      base64s.push(text.slice(skip, (filler + bytes.length) % 3 ? -1 : undefined));
    }
  }
  for (const text of base64s) forms.push(text, text.replace(/\+/g, '-').replace(/\//g, '_'));
  return forms;
}

function redactText(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

function copyRedacted(data: unknown, forms: readonly string[], copies: Map<object, unknown>): unknown {
  if (typeof data === 'string') return redactText(data, forms);
  if (typeof data !== 'object' || data === null) return data;
  if (copies.has(data)) return copies.get(data);
  const inner = (value: unknown) => copyRedacted(value, forms, copies);
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
  for (const [key, value] of Object.entries(data)) copy[redactText(key, forms)] = inner(value);
  return copy;
}
