import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretForms, secretRedactor } from './redact-secrets.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const join = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((part) => [...part]));

describe('secretRedactor', () => {
  it('finds a secret of 8 bytes or more inside any longer base64 or base64url text, whatever bytes surround it', () => {
    const secret = fc.string({ unit: 'grapheme', minLength: 8, maxLength: 24 });
    const around = fc.uint8Array({ maxLength: 12 });
    fc.assert(
      fc.property(secret, around, around, fc.boolean(), (key, before, after, url) => {
        let blob = b64(join(before, utf8(key), after));
        if (url) blob = blob.replace(/\+/g, '-').replace(/\//g, '_');
        const redacted = secretRedactor([key])(blob) as string;
        expect(redacted).toContain('[redacted]');
        // The characters whose six bits all come from the key: none may remain.
        const first = Math.ceil((8 * before.length) / 6);
        const end = Math.floor((8 * (before.length + utf8(key).length)) / 6);
        expect(redacted).not.toContain(blob.slice(first, end));
      }),
    );
  });

  it('finds a secret as itself, URL-encoded (component, URI, form) and base64/base64url (padded or not) inside text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 8, maxLength: 30 }), (key) => {
        const encoded = [
          key,
          encodeURIComponent(key),
          encodeURI(key),
          new URLSearchParams({ k: key }).toString().slice(2),
          b64(utf8(key)),
          b64(utf8(key)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
        ];
        for (const form of encoded) {
          expect(secretRedactor([key])(`<${form}>`)).toBe('<[redacted]>');
        }
      }),
    );
  });

  it('catches the key of a Basic authorization header, user:secret in base64', () => {
    const header = `Basic ${btoa('ana:sk-live-0123456789abcdef')}`;
    const redacted = secretRedactor(['sk-live-0123456789abcdef'])(header) as string;
    expect(redacted).toMatch(/^Basic YW5h.{0,2}\[redacted\].{0,3}$/);
  });

  it('seeks a secret under 8 bytes only whole, not inside longer base64: its middle would be a few characters that unrelated text holds', () => {
    expect(secretForms('abcdefg')).toEqual(expect.not.arrayContaining([b64(utf8('xabcdefg')).slice(2, -1)]));
    expect(secretRedactor(['abcdefg'])(b64(utf8('xabcdefg')))).toBe(b64(utf8('xabcdefg')));
  });

  it('does not catch a secret the tool transformed otherwise: reversed, hashed, hex, split, re-cased, lower-case percent escapes or encoded twice', async () => {
    const key = 'sk-live-0123456789abcdef';
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(key)));
    const transformed = [
      [...key].reverse().join(''),
      b64(digest),
      [...utf8(key)].map((byte) => byte.toString(16).padStart(2, '0')).join(''),
      `${key.slice(0, 10)} ${key.slice(10)}`,
      key.toUpperCase(),
    ];
    for (const text of transformed) expect(secretRedactor([key])(text)).toBe(text);
    const spaced = 'sk live/0123456789abcdef';
    const escaped = [
      encodeURIComponent(spaced).replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()),
      encodeURIComponent(encodeURIComponent(spaced)),
    ];
    for (const text of escaped) expect(secretRedactor([spaced])(text)).toBe(text);
  });
});
