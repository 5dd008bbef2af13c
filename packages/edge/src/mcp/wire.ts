import type { Identity } from '@toolctx/core';

/**
 * The header the Worker uses to hand the identity it authenticated to the session object. Only
 * the Worker can reach a Durable Object, and the Worker drops this header from what clients send.
 */
export const identityHeader = 'x-toolctx-identity';

/** The identity the Worker put on a request, if any. */
export function readIdentity(request: Request): Identity | undefined {
  const raw = request.headers.get(identityHeader);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Identity;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC error response, as the streamable HTTP transport shapes them. */
export function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
