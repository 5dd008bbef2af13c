import { createCredential } from './credential.js';
import type { CredentialAnswer, CredentialProvider, CredentialRequest } from './credential-provider.js';

/**
 * One entry of {@link staticCredentials}: the value alone, or the value with the scopes it grants.
 * An entry without `scopes` does not restrict them.
 */
export type StaticCredential = string | { value: string; scopes?: readonly string[] };

/**
 * A provider with fixed values, the same for every tenant and principal: for tests and simple
 * single-user apps. A missing name, or a requested scope the entry does not grant, is a `failed`
 * answer whose reason says how to fix the map.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { staticCredentials } from '@toolctx/core/memory';
 * declare const tools: AnyTool[];
 * const runtime = createRuntime({
 *   tools,
 *   credentials: staticCredentials({ github: { value: 'ghp_…', scopes: ['repo'] }, weather: 'key-…' }),
 * });
 * ```
 */
export function staticCredentials(map: Record<string, StaticCredential>): CredentialProvider {
  const entries = new Map<string, { value: string; scopes?: readonly string[] }>();
  for (const [name, entry] of Object.entries(map)) {
    entries.set(name, typeof entry === 'string' ? { value: entry } : { ...entry });
  }
  return {
    async resolve(request: CredentialRequest): Promise<CredentialAnswer> {
      const name = request.credential;
      const entry = entries.get(name);
      if (!entry) {
        const known = [...entries.keys()].map((key) => `\`${key}\``).join(', ') || 'none';
        return {
          kind: 'failed',
          reason: `No credential named \`${name}\` is configured (configured: ${known}); add it to staticCredentials({ ${JSON.stringify(name)}: '…' }).`,
        };
      }
      const missing = entry.scopes
        ? (request.scopes ?? []).filter((scope) => !entry.scopes?.includes(scope))
        : [];
      if (missing.length > 0) {
        return {
          kind: 'failed',
          reason:
            `Credential \`${name}\` does not grant ${missing.map((s) => `\`${s}\``).join(', ')}; it grants ` +
            `${entry.scopes?.map((s) => `\`${s}\``).join(', ') || 'no scopes'}. Add the scope to its entry in staticCredentials.`,
        };
      }
      const scopes = entry.scopes ?? request.scopes;
      return {
        kind: 'issued',
        credential: createCredential({ credential: name, value: entry.value, scopes }),
      };
    },
  };
}
