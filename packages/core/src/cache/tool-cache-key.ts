import { scopeKey } from '../artifacts/scope-key.js';
import type { ArtifactScope } from '../artifacts/types.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';

/**
 * The cache key of one tool call: `tc1_` and the sha-256 of the canonical JSON of the scope key,
 * the tool name and the arguments. Argument key order does not matter; the scope is part of the
 * hash, so two tenants (or principals, or conversations) never share an entry. To share across
 * conversations on purpose, pass a scope with `conversation: ''`.
 */
export async function toolCacheKey(call: {
  toolName: string;
  args: unknown;
  scope: ArtifactScope;
}): Promise<string> {
  const text = canonicalJson([scopeKey(call.scope), call.toolName, call.args ?? null]);
  return `tc1_${await sha256Hex(text)}`;
}
