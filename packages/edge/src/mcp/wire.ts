import type { Identity } from '@toolctx/core';
import { readBoundedBody } from '../door/read-body.js';

/**
 * The header the Worker uses to hand the identity it authenticated to the session object. Only
 * the Worker can reach a Durable Object, and the Worker drops this header from what clients send.
 */
export const identityHeader = 'x-toolctx-identity';

/** The largest POST body the MCP door reads, in the Worker and in the session object: 1 MiB. */
export const maxMessageBytes = 1024 * 1024;

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

/**
 * The 401 for a caller `authenticate` refused (with its `{ refused }` message, if any), with the challenge the MCP authorization spec asks
 * for: `WWW-Authenticate: Bearer`, naming the protected-resource metadata (RFC 9728) when the
 * endpoint has one, so an MCP client can find where to get a token.
 */
export function unauthorized(resourceMetadataUrl?: string, message = 'Unauthorized.'): Response {
  const challenge = resourceMetadataUrl
    ? `Bearer realm="mcp", resource_metadata=${quoted(resourceMetadataUrl)}`
    : 'Bearer realm="mcp"';
  return jsonRpcError(401, -32001, message, { 'www-authenticate': challenge });
}

/** An RFC 9110 quoted-string. */
function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** A JSON-RPC error response, as the streamable HTTP transport shapes them. */
export function jsonRpcError(status: number, code: number, message: string, headers?: HeadersInit): Response {
  const response = Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
  for (const [name, value] of new Headers(headers)) response.headers.set(name, value);
  return response;
}

/**
 * The one answer for a session id that names no session, and for another identity's session: the
 * same status, body and headers, so a caller cannot tell whether the session exists.
 */
export function sessionNotFound(): Response {
  return jsonRpcError(404, -32001, 'Session not found.');
}

/** A POST body as text, or `undefined` if it is larger than `maxBytes` (declared or sent). */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string | undefined> {
  const bytes = await readBoundedBody(request, maxBytes);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** The 413 the streamable HTTP transport answers for a body over the limit. */
export function bodyTooLarge(maxBytes: number): Response {
  return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`);
}

/** The 408 for a POST body still arriving after `timeoutMs` (a client trickling it). */
export function bodyTooSlow(timeoutMs: number): Response {
  return jsonRpcError(408, -32000, `Request Timeout: the body did not arrive within ${timeoutMs} ms`);
}

/**
 * Whether a body is an empty JSON-RPC batch (`[]`), which JSON-RPC 2.0 answers with one Invalid
 * Request error; the SDK's transport would take it as a batch of nothing and answer 202.
 */
export function isEmptyBatch(body: string): boolean {
  return /^\s*\[\s*\]\s*$/.test(body);
}

/** JSON-RPC 2.0's answer to an empty batch: a single Invalid Request error. */
export function emptyBatch(): Response {
  return jsonRpcError(
    400,
    -32600,
    'Invalid Request: an empty batch ([]) holds no message; send one JSON-RPC message.',
  );
}
