import type { Identity } from '@toolctx/core';
import type { Hono } from 'hono';
import { identityHeader, jsonRpcError } from './wire.js';

/** Options of {@link mcpFetch} and {@link mountMcp}. */
export interface McpRouteOptions {
  /**
   * Establishes who calls, from the request (a bearer token, an Access header); `null` refuses
   * with 401. Calls run with the identity it returns. Default: every caller is anonymous.
   */
  authenticate?: (request: Request) => Identity | null | Promise<Identity | null>;
}

/**
 * Routes one MCP streamable HTTP request to its session's Durable Object: a request without an
 * `mcp-session-id` (the `initialize`) gets a new object, whose id becomes the session id; a request
 * with one goes back to that object; an id that names no session gets 404, so the client starts anew.
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
  const sessionId = request.headers.get('mcp-session-id');
  let id: DurableObjectId;
  try {
    id = sessionId ? sessions.idFromString(sessionId) : sessions.newUniqueId();
  } catch {
    return jsonRpcError(404, -32001, 'Session not found.');
  }
  const headers = new Headers(request.headers);
  headers.delete(identityHeader);
  if (identity) headers.set(identityHeader, JSON.stringify(identity));
  return sessions.get(id).fetch(new Request(request, { headers }));
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
