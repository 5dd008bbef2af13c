// The cap on one identity's MCP sessions (`sessionLimit`): the Worker takes a slot before a
// session object starts, the session object gives it back when the session is closed or lapses.
// The slots are counted by the IdentityRunsObject that counts the identity's runs.
import type { Identity } from '@toolctx/core';
import type { Reply } from '../door-error.js';
import type { IdentityRunsObject } from '../run-host/identity-runs.js';
import { identityRunsOf } from '../run-host/identity-slots.js';
import { defaultLimits } from '../run-host/limits.js';
import { jsonRpcError } from './wire.js';

/** `sessionLimit` of the MCP route options. */
export interface McpSessionLimit {
  /** The env binding of the `IdentityRunsObject` subclass (the one `durableObjectRuns` counts runs with). */
  binding: string;
  /** Sessions one identity (tenant and principal) holds at once. Default 100. */
  maxSessionsPerIdentity?: number;
}

/** The header on which the Worker tells a session object where its slot is counted. */
export const slotHeader = 'x-toolctx-session-slots';

/**
 * Takes a slot for a new session of `identity`: `undefined` when taken (or when nothing is
 * counted: no limit, or an anonymous caller), else the 429 to answer.
 */
export async function takeSessionSlot(
  limit: McpSessionLimit | undefined,
  env: unknown,
  identity: Identity | undefined,
  sessionId: string,
): Promise<Response | undefined> {
  if (!limit || !identity) return undefined;
  const max = limit.maxSessionsPerIdentity ?? defaultLimits.maxSessionsPerIdentity;
  const slots = identityRunsOf(slotsNamespace(env, limit.binding), identity);
  const taken = (await slots.acquire(sessionId, max, 'mcp-session')) as Reply<unknown>;
  if (taken.ok) return undefined;
  const headers: Record<string, string> = {};
  if (taken.retryAfter !== undefined) headers['retry-after'] = String(taken.retryAfter);
  return jsonRpcError(429, -32000, taken.error.message, headers);
}

/** Gives back the slot of `identity`'s session `sessionId` (best effort: a failed release is not the session's failure). */
export async function releaseSessionSlot(
  env: unknown,
  binding: string,
  identity: Identity,
  sessionId: string,
): Promise<void> {
  try {
    await identityRunsOf(slotsNamespace(env, binding), identity).release(sessionId, 'mcp-session');
  } catch {
    // The counter is unreachable or misbound: the slot lapses with nothing, and the session still ends.
  }
}

function slotsNamespace(env: unknown, binding: string): DurableObjectNamespace<IdentityRunsObject> {
  const namespace = (env as Record<string, unknown> | undefined)?.[binding];
  if (!namespace || typeof (namespace as DurableObjectNamespace).idFromName !== 'function') {
    throw new TypeError(
      `sessionLimit: env.${binding} is not a Durable Object namespace. Bind your IdentityRunsObject subclass under that name (the one that counts runs), and pass the Worker's env to mcpFetch.`,
    );
  }
  return namespace as DurableObjectNamespace<IdentityRunsObject>;
}
