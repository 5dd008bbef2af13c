import type { Identity } from '@toolctx/core';

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
  if (Number(request.headers.get('content-length')) > maxBytes) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = '';
  while (true) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** The 413 the streamable HTTP transport answers for a body over the limit. */
export function bodyTooLarge(maxBytes: number): Response {
  return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBytes} bytes`);
}
