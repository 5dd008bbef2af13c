import type { Identity } from '@toolctx/core';

/**
 * Whether two callers are the same identity: same tenant, principal and conversation. Anonymous
 * (`undefined`) is only ever the same as anonymous, never as an identity, even an empty one.
 */
export function sameIdentity(a: Identity | undefined, b: Identity | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.tenant === b.tenant && a.principal === b.principal && a.conversationId === b.conversationId;
}
