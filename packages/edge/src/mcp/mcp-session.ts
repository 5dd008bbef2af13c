import { DurableObject } from 'cloudflare:workers';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Identity, Runtime } from '@toolctx/core';
import { type ServeMcpOptions, serveMcp } from '@toolctx/core/mcp';
import { jsonRpcError, readIdentity } from './wire.js';

/**
 * The Durable Object that holds one MCP session: an `McpServer` (from `serveMcp`) and its
 * streamable HTTP transport, created by the session's `initialize` request. Every later request of
 * the session reaches this same object, so a `notifications/cancelled` that arrives in its own
 * POST finds the running call and fires the tool's `ctx.signal`; a client that drops the response
 * stream (or, with `enable_request_signal`, the request) cancels the calls that stream carried.
 *
 * Subclass it to say which tools it serves, export the subclass from the Worker and bind it.
 * The session lives in memory: if the object is evicted, the next request gets 404 and the MCP
 * client starts a new session, as the protocol asks.
 *
 * @example
 * ```ts
 * import { createRuntime } from '@toolctx/core';
 * import { McpSession } from '@toolctx/edge';
 *
 * export class ToolsMcpSession extends McpSession {
 *   protected createRuntime() {
 *     return createRuntime({ tools: [countWords] });
 *   }
 * }
 * ```
 */
export abstract class McpSession<Env = unknown> extends DurableObject<Env> {
  private session: { server: McpServer; transport: WebStandardStreamableHTTPServerTransport } | undefined;

  /** The runtime whose tools this session serves; called once, when the session starts. */
  protected abstract createRuntime(): Runtime;

  /** Options for `serveMcp`, such as the server's name or the phase. */
  protected serveOptions(): ServeMcpOptions {
    return {};
  }

  /** Handles one MCP streamable HTTP request of this session (POST, GET or DELETE). */
  override async fetch(request: Request): Promise<Response> {
    const identity = readIdentity(request);
    if (!this.session) {
      if (request.headers.has('mcp-session-id')) return jsonRpcError(404, -32001, 'Session not found.');
      this.session = await this.start();
    }
    const requestIds = await callIdsOf(request);
    const { transport } = this.session;
    const response = await transport.handleRequest(request, {
      ...(identity ? { authInfo: { token: '', clientId: '', scopes: [], extra: { identity } } } : {}),
    });
    if (request.method === 'DELETE' && response.ok) this.session = undefined;
    if (requestIds.length === 0 || !response.body) return response;
    let cancelled = false;
    const cancel = (reason: string) => {
      if (cancelled) return;
      cancelled = true;
      for (const requestId of requestIds) {
        const message: JSONRPCMessage = {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId, reason },
        };
        transport.onmessage?.(message);
      }
    };
    request.signal.addEventListener('abort', () => cancel('The client disconnected.'), { once: true });
    const body = watchCancel(response.body, () => cancel('The client closed the stream.'));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  private async start() {
    const options = this.serveOptions();
    const server = serveMcp(this.createRuntime(), {
      ...options,
      identify: (caller) =>
        (caller.authInfo?.extra?.identity as Identity | undefined) ?? options.identify?.(caller),
    });
    const sessionId = this.ctx.id.toString();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId });
    transport.onclose = () => {
      this.session = undefined;
    };
    await server.connect(transport);
    return { server, transport };
  }
}

/** The ids of the JSON-RPC requests a POST carries: the calls its response stream answers. */
async function callIdsOf(request: Request): Promise<(string | number)[]> {
  if (request.method !== 'POST') return [];
  try {
    const body: unknown = await request.clone().json();
    const messages = Array.isArray(body) ? body : [body];
    return messages
      .filter((message) => typeof message?.method === 'string' && message.id !== undefined)
      .map((message) => message.id as string | number);
  } catch {
    return [];
  }
}

/** The same stream, with `onCancel` called if the reader gives up before it ends. */
function watchCancel(body: ReadableStream<Uint8Array>, onCancel: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      onCancel();
      return reader.cancel(reason);
    },
  });
}
