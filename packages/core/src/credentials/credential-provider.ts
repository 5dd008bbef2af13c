import type { Credential } from './credential.js';

/** What a tool asks for: a credential by name, optionally with the scopes it needs. */
export interface CredentialRequest {
  credential: string;
  scopes?: readonly string[];
}

/** Who the credential is for: the run's tenant and principal, as the host established them. */
export interface CredentialSubject {
  tenant?: string;
  principal?: string;
}

/**
 * A provider's answer: the credential, a link the user must open to grant access first, or a
 * failure with a reason that is safe to show (it must not contain secrets).
 */
export type CredentialAnswer =
  | { kind: 'issued'; credential: Credential }
  | { kind: 'authorization-required'; authorizationUrl: string; authorizationId?: string }
  | { kind: 'failed'; reason: string };

/**
 * Resolves credentials for a tenant and principal: a vault, an OAuth broker, or
 * `staticCredentials` (`@toolctx/core/memory`) for tests and simple apps. Attach one with `createRuntime({ credentials })`.
 *
 * @example
 * ```ts
 * import type { CredentialProvider } from '@toolctx/core';
 * declare function lookUp(tenant: string | undefined, credential: string): Promise<string | undefined>; // your vault
 * const vault: CredentialProvider = {
 *   async resolve({ credential }, { tenant }) {
 *     const value = await lookUp(tenant, credential);
 *     return value ? { kind: 'issued', credential: { credential, value } } : { kind: 'failed', reason: 'Not in the vault.' };
 *   },
 * };
 * ```
 */
export interface CredentialProvider {
  /** Finds the credential `request` names for `who`, or says why there is none. */
  resolve(request: CredentialRequest, who: CredentialSubject): Promise<CredentialAnswer>;
}
