import type { Identity } from '@toolctx/core';
import type { Hono } from 'hono';
import {
  bodyTooLarge,
  identityHeader,
  jsonRpcError,
  maxMessageBytes,
  readBoundedText,
  sessionNotFound,
} from './wire.js';

/** Options of {@link mcpFetch} and {@link mountMcp}. */
export interface McpRouteOptions {
  /**
   * Establishes who calls, from the request (a bearer token, an Access header); `null` refuses
   * with 401. Calls run with the identity it returns. Default: every caller is anonymous.
   */
  authenticate?: (request: Request) => Identity | null | Promise<Identity | null>;
}

/**
 * Routes one MCP streamable HTTP request to its session's Durable Object. A request with an
 * `mcp-session-id` goes back to the object that id names; the object answers it only for the
 * identity that initialized the session, and every other identity (anonymous and identified count
 * as different) gets the very 404 an unknown session id gets, so the client starts anew. A request
 * without one must be a POST whose body is an `initialize` (read here, at most 1 MiB, else 413): it
 * gets a new object, whose id becomes the session id. Anything else without a session id is
 * refused here, as the SDK's transport would (400, or 405 for a method MCP does not use), and no
 * object is created for it.
 *
 * @example
 * ```ts
 * import { mcpFetch } from '@toolctx/edge';
 * export default {
 *   fetch: (request, env) => mcpFetch(request, env.MCP_SESSIONS),
 * } satisfies ExportedHandler<Env>;
 * export { ToolsMcpSession } from './tools-mcp-session.js';
 * ```
 */
export async function mcpFetch(
  request: Request,
  sessions: DurableObjectNamespace,
  options: McpRouteOptions = {},
): Promise<Response> {
  const identity = options.authenticate ? await options.authenticate(request) : undefined;
  if (identity === null) return jsonRpcError(401, -32001, 'Unauthorized.');
  const headers = new Headers(request.headers);
  headers.delete(identityHeader);
  if (identity) headers.set(identityHeader, JSON.stringify(identity));
  if (request.method !== 'POST' && request.method !== 'GET' && request.method !== 'DELETE') {
    return jsonRpcError(405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
  }
  // The body is read here, whole and bounded, so a session object never answers before it has
  // read what the Worker streams to it.
  let body: string | undefined;
  if (request.method === 'POST') {
    body = await readBoundedText(request, maxMessageBytes);
    if (body === undefined) return bodyTooLarge(maxMessageBytes);
  }
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId) {
    let id: DurableObjectId;
    try {
      id = sessions.idFromString(sessionId);
    } catch {
      return sessionNotFound();
    }
    return sessions.get(id).fetch(new Request(request, { headers, body }));
  }
  const refusal = refuseOpening(body);
  if (refusal) return refusal;
  return sessions.get(sessions.newUniqueId()).fetch(new Request(request, { headers, body }));
}

/**
 * Why a request without a session id cannot start a session, if it cannot: only a POST whose body
 * is one `initialize` can. The same statuses and messages as the SDK's transport.
 */
function refuseOpening(text: string | undefined): Response | undefined {
  if (text === undefined) return sessionIdRequired(); // a GET or a DELETE
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return jsonRpcError(400, -32700, 'Parse error: Invalid JSON');
  }
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const initializing = messages.some(
    (message) => (message as { method?: unknown } | null)?.method === 'initialize',
  );
  if (!initializing) return sessionIdRequired();
  if (messages.length > 1) {
    return jsonRpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  }
  return undefined;
}

function sessionIdRequired(): Response {
  return jsonRpcError(
    400,
    -32000,
    'Bad Request: Mcp-Session-Id header is required. Send an initialize request first; its response carries the session id for every later request.',
  );
}

/**
 * Mounts the MCP door on a hono app: every method at `path` (default `/mcp`) goes to
 * {@link mcpFetch} with the Durable Object namespace bound as `binding`.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { mountMcp } from '@toolctx/edge';
 *
 * const app = new Hono<{ Bindings: Env }>();
 * mountMcp(app, { binding: 'MCP_SESSIONS' });
 * export default app;
 * export { ToolsMcpSession } from './tools-mcp-session.js';
 * ```
 */
export function mountMcp(
  // biome-ignore lint/suspicious/noExplicitAny: any hono app whose bindings hold the namespace.
  app: Hono<any>,
  options: McpRouteOptions & { binding: string; path?: string },
): void {
  app.all(options.path ?? '/mcp', (c) => {
    const sessions = (c.env as Record<string, unknown>)[options.binding];
    if (!sessions || typeof (sessions as DurableObjectNamespace).idFromString !== 'function') {
      throw new TypeError(
        `mountMcp: env.${options.binding} is not a Durable Object namespace. Bind your McpSession subclass under that name in wrangler.jsonc.`,
      );
    }
    return mcpFetch(c.req.raw, sessions as DurableObjectNamespace, options);
  });
}
