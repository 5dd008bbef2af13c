/**
 * A credential a provider issued: its name, the secret `value`, and optionally the scopes it
 * grants and when it expires (milliseconds since the epoch). Objects made by
 * {@link createCredential} keep `value` readable but never print it: `JSON.stringify` shows
 * `"[redacted]"` and `String(credential)` shows `[credential <name>]`.
 *
 * @example
 * ```ts
 * import type { Credential } from '@toolctx/core';
 * const use = (github: Credential) => fetch('https://api.github.com/user', {
 *   headers: { authorization: `Bearer ${github.value}` },
 * });
 * ```
 */
export interface Credential {
  readonly credential: string;
  readonly value: string;
  readonly scopes?: readonly string[];
  readonly expiresAt?: number;
}

/**
 * What `JSON.stringify` writes for a credential's value.
 */
export const REDACTED = '[redacted]';

const credentialPrototype = {
  toJSON(this: Credential): Record<string, unknown> {
    const shown: Record<string, unknown> = { credential: this.credential, value: REDACTED };
    if (this.scopes) shown.scopes = this.scopes;
    if (this.expiresAt !== undefined) shown.expiresAt = this.expiresAt;
    return shown;
  },
  toString(this: Credential): string {
    return `[credential ${this.credential}]`;
  },
};

/**
 * Wraps credential data in a frozen object that does not leak its value by accident (logging it
 * as JSON or in a template string). Crossing a structured-clone boundary (postMessage) keeps the
 * data and drops the wrapping: wrap it again on the other side.
 *
 * @example
 * ```ts
 * import { createCredential } from '@toolctx/core/ports';
 * const github = createCredential({ credential: 'github', value: 'ghp_…' });
 * JSON.stringify(github); // '{"credential":"github","value":"[redacted]"}'
 * `${github}`; // '[credential github]'
 * github.value; // 'ghp_…'
 * ```
 */
export function createCredential(data: Credential): Credential {
  const credential: { -readonly [K in keyof Credential]: Credential[K] } = Object.create(credentialPrototype);
  credential.credential = data.credential;
  credential.value = data.value;
  if (data.scopes) credential.scopes = Object.freeze([...data.scopes]);
  if (data.expiresAt !== undefined) credential.expiresAt = data.expiresAt;
  return Object.freeze(credential);
}
