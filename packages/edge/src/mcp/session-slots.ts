// The caps on one identity's MCP sessions (`sessionLimit`) and calls (`callLimit`). The Worker takes
// a session's slot before its object starts, and the session object gives it back when the session
// is closed or lapses; the session object takes a slot per `tools/call` and gives it back when the
// call is answered or cancelled. Both are counted by the IdentityStateObject that counts the
// identity's runs.
import type { RequestId } from '@modelcontextprotocol/server';
import type { Identity } from '@toolctx/core';
import type { Reply } from '../door/door-error.js';
import {
  type CallSlot,
  defaultLimits,
  type IdentityCallLimit,
  identityStateBinding,
  identityStateOf,
  takeCallSlot,
} from '../run-host/index.js';
import { jsonRpcError } from './wire.js';

/**
 * `sessionLimit` of the MCP route options.
 *
 * @experimental The per-identity caps are new; their options may still change.
 */
export interface McpSessionLimit {
  /** The env binding of the `IdentityStateObject` subclass (the one `durableObjectRuns` counts runs with). */
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
  const slots = identityStateOf(identityStateBinding(env, limit.binding, 'sessionLimit'), identity);
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
    await identityStateOf(identityStateBinding(env, binding, 'sessionLimit'), identity).release(
      sessionId,
      'mcp-session',
    );
  } catch {
    // The counter is unreachable or misbound: the slot lapses with nothing, and the session still ends.
  }
}

/** The header on which the Worker tells a session object how its identity's calls are counted. */
export const callSlotHeader = 'x-toolctx-call-slots';

/** The `callLimit` the Worker put on a request, if any (only the Worker can set it). */
export function readCallLimit(request: Request): IdentityCallLimit | undefined {
  const raw = request.headers.get(callSlotHeader);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as IdentityCallLimit;
  } catch {
    return undefined;
  }
}

/** What a POST body means to the call limit: its `tools/call` request ids, and the ids its cancels name. */
export function callsOf(text: string): { calls: RequestId[]; cancels: RequestId[] } {
  const calls: RequestId[] = [];
  const cancels: RequestId[] = [];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { calls, cancels };
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    const { method, id, params } = (message ?? {}) as {
      method?: unknown;
      id?: unknown;
      params?: { requestId?: unknown };
    };
    if (method === 'tools/call' && isRequestId(id)) calls.push(id);
    if (method === 'notifications/cancelled' && isRequestId(params?.requestId))
      cancels.push(params.requestId);
  }
  return { calls, cancels };
}

const isRequestId = (id: unknown): id is RequestId => typeof id === 'string' || typeof id === 'number';

/**
 * Takes a slot of `identity`'s for each of `calls`: the slots by request id, or, if one is refused,
 * the 429 to answer (a JSON-RPC error naming the limit and the option, with `Retry-After`), the
 * slots already taken given back.
 */
export async function takeCallSlots(
  limit: IdentityCallLimit,
  env: unknown,
  identity: Identity,
  calls: RequestId[],
): Promise<Map<RequestId, CallSlot> | Response> {
  const slots = new Map<RequestId, CallSlot>();
  for (const id of calls) {
    const taken = await takeCallSlot(limit, env, identity);
    if (taken.ok) {
      slots.set(id, taken.value);
      continue;
    }
    await Promise.all([...slots.values()].map((slot) => slot.release()));
    const { error, retryAfter } = taken;
    const body = {
      jsonrpc: '2.0',
      error: { code: -32000, message: error.message, data: error.details },
      id: calls.length === 1 ? id : null,
    };
    const headers = retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) };
    return Response.json(body, { status: 429, headers });
  }
  return slots;
}
