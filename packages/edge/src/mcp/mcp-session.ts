import { DurableObject } from 'cloudflare:workers';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Identity, Runtime } from '@toolctx/core';
import { type ServeMcpOptions, serveMcp } from '@toolctx/core/mcp';
import { sameIdentity } from '../same-identity.js';
import {
  bodyTooLarge,
  jsonRpcError,
  maxMessageBytes,
  readBoundedText,
  readIdentity,
  sessionNotFound,
} from './wire.js';

/**
 * The Durable Object that holds one MCP session: an `McpServer` (from `serveMcp`) and its
 * streamable HTTP transport, created by the session's `initialize` request. Every later request of
 * the session reaches this same object, so a `notifications/cancelled` that arrives in its own
 * POST finds the running call and fires the tool's `ctx.signal`; a client that drops the response
 * stream (or, with `enable_request_signal`, the request) cancels the calls that stream carried.
 *
 * The session belongs to the identity that initialized it (tenant, principal and conversation, as
 * the Worker authenticated them; anonymous is an identity of its own), recorded in memory and in
 * the object's storage. A request from any other identity gets the same 404 as a session id that
 * names no session, byte for byte, and touches nothing: no call runs, no cancel is delivered, the
 * session is not deleted, its GET stream is not taken, its request ids are not looked at. Within
 * the session, a request id that is still in flight cannot be used again (409 with a JSON-RPC
 * error), so one request never receives another's progress or result.
 *
 * When the runtime has an artifact store, the session serves its artifacts as MCP resources
 * (`toolctx://artifacts/{ref}`, see `serveMcp`), scoped as the HTTP door's `GET /artifacts/:ref`:
 * an identified session sees its identity's artifacts; an anonymous one only what its own calls
 * saved, in a scope made for this object's session (gone with the session).
 *
 * Subclass it to say which tools it serves, export the subclass from the Worker and bind it.
 * The session lives in memory: if the object is evicted, the next request gets 404 and the MCP
 * client starts a new session, as the protocol asks. A DELETE clears the object's storage; an
 * evicted session's record is cleared by the object's alarm within an hour (a subclass that
 * overrides `alarm` calls `super.alarm()`).
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { McpSession } from '@toolctx/edge/durable-objects';
 * declare const countWords: AnyTool;
 *
 * export class ToolsMcpSession extends McpSession {
 *   protected createRuntime() {
 *     return createRuntime({ tools: [countWords] });
 *   }
 * }
 * ```
 */
export abstract class McpSession<Env = unknown> extends DurableObject<Env> {
  private session: Session | undefined;
  /** Who initialized this object's session, once known: from memory, else from storage. */
  private owner: Owner | undefined;

  /** The runtime whose tools this session serves; called once, when the session starts. */
  protected abstract createRuntime(): Runtime;

  /** Options for `serveMcp`, such as the server's name or the phase. */
  protected serveOptions(): ServeMcpOptions {
    return {};
  }

  /**
   * Adds what is outside toolctx to the session's server with the MCP SDK's own API: prompts,
   * resources (listed next to the artifacts), completions. Called once per session, on the `McpServer` that `serveMcp` made,
   * before it connects (the SDK only registers capabilities before then); the server is the same
   * one `serveMcp` returns on Node, so one function can serve both set-ups.
   *
   * @example
   * ```ts
   * import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
   * import { type AnyTool, createRuntime } from '@toolctx/core';
   * import { McpSession } from '@toolctx/edge/durable-objects';
   * declare const countWords: AnyTool;
   *
   * export class ToolsMcpSession extends McpSession {
   *   protected createRuntime() {
   *     return createRuntime({ tools: [countWords] });
   *   }
   *
   *   protected override configureServer(server: McpServer) {
   *     server.registerPrompt('summarize', { description: 'Summarize the text so far.' }, () => ({
   *       messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the text so far.' } }],
   *     }));
   *   }
   * }
   * ```
   */
  protected configureServer(_server: McpServer): void {}

  /** Handles one MCP streamable HTTP request of this session (POST, GET or DELETE). */
  override async fetch(request: Request): Promise<Response> {
    const identity = readIdentity(request);
    if (!this.owner) {
      const stored = await this.ctx.storage.get<Owner>(ownerKey);
      this.owner ??= stored;
    }
    if (this.owner && !sameIdentity(this.owner.identity ?? undefined, identity)) return sessionNotFound();
    if (!this.session) {
      if (request.headers.has('mcp-session-id') || this.owner) return sessionNotFound();
      this.session = await this.start();
      this.owner = { identity: identity ?? null };
    }
    const session = this.session;
    const text = request.method === 'POST' ? await readBoundedText(request, maxMessageBytes) : undefined;
    if (request.method === 'POST' && text === undefined) return bodyTooLarge(maxMessageBytes);
    const requestIds = text === undefined ? [] : callIdsOf(text);
    const release = reserve(session.inFlight, requestIds);
    if (release instanceof Response) return release;
    const { transport } = session;
    let response: Response;
    try {
      response = await transport.handleRequest(
        text === undefined
          ? request
          : new Request(request.url, { method: 'POST', headers: request.headers, body: text }),
        identity ? { authInfo: { token: '', clientId: '', scopes: [], extra: { identity } } } : undefined,
      );
    } catch (error) {
      release();
      throw error;
    }
    // The transport says 404 only for a session it no longer has: the same answer as ours.
    if (response.status === 404) {
      release();
      return sessionNotFound();
    }
    if (!session.recorded && transport.sessionId !== undefined) {
      session.recorded = true;
      await this.record();
    }
    if (request.method === 'DELETE' && response.ok) await this.forget();
    if (requestIds.length === 0 || !response.body || !response.ok) {
      release();
      return response;
    }
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
    const body = watchEnd(response.body, release, () => cancel('The client closed the stream.'));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /**
   * Clears the record of a session this object no longer holds (evicted, or closed); re-arms while
   * the session lives.
   */
  override async alarm(): Promise<void> {
    if (this.session) await this.ctx.storage.setAlarm(Date.now() + recordCheckMs);
    else await this.forget();
  }

  private async start(): Promise<Session> {
    const options = this.serveOptions();
    const server = serveMcp(this.createRuntime(), {
      ...options,
      identify: (caller) =>
        (caller.authInfo?.extra?.identity as Identity | undefined) ?? options.identify?.(caller),
    });
    this.configureServer(server);
    const sessionId = this.ctx.id.toString();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId });
    transport.onclose = () => {
      this.session = undefined;
    };
    await server.connect(transport);
    return { server, transport, inFlight: new Set(), recorded: false };
  }

  /** Writes down the owner once the session is initialized, and arms the alarm that clears it. */
  private async record(): Promise<void> {
    if (!this.owner) return;
    await this.ctx.storage.put(ownerKey, this.owner);
    await this.ctx.storage.setAlarm(Date.now() + recordCheckMs);
  }

  private async forget(): Promise<void> {
    this.session = undefined;
    this.owner = undefined;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }
}

interface Session {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** The JSON-RPC request ids whose response stream is still open. */
  inFlight: Set<string | number>;
  /** Whether the owner is in storage yet: it is written once the session is initialized. */
  recorded: boolean;
}

/** The identity that initialized the session; `null` for anonymous. */
interface Owner {
  identity: Identity | null;
}

const ownerKey = 'owner';
const recordCheckMs = 60 * 60_000;

/**
 * Marks a POST's request ids as in flight and answers how to release them, or refuses the POST if
 * one of them is still in flight (or appears twice in it): the transport routes a response by its
 * request id, so a second request with the same id would take over the first one's stream.
 */
function reserve(inFlight: Set<string | number>, ids: (string | number)[]): (() => void) | Response {
  const reused = ids.find((id, i) => inFlight.has(id) || ids.indexOf(id) !== i);
  if (reused !== undefined) {
    return jsonRpcError(
      409,
      -32600,
      `Invalid Request: the request id ${JSON.stringify(reused)} is already in use by a request in progress in this session. Give every request a new id.`,
    );
  }
  for (const id of ids) inFlight.add(id);
  return () => {
    for (const id of ids) inFlight.delete(id);
  };
}

/** The ids of the JSON-RPC requests a POST carries: the calls its response stream answers. */
function callIdsOf(text: string): (string | number)[] {
  try {
    const body: unknown = JSON.parse(text);
    const messages = Array.isArray(body) ? body : [body];
    return messages
      .filter(
        (message) =>
          typeof message?.method === 'string' &&
          (typeof message.id === 'string' || typeof message.id === 'number'),
      )
      .map((message) => message.id as string | number);
  } catch {
    return [];
  }
}

/** The same stream, with `onEnd` called once it ends either way, and `onCancel` if the reader gives up. */
function watchEnd(
  body: ReadableStream<Uint8Array>,
  onEnd: () => void,
  onCancel: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          onEnd();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        onEnd();
        controller.error(error);
      }
    },
    cancel(reason) {
      onEnd();
      onCancel();
      return reader.cancel(reason);
    },
  });
}
