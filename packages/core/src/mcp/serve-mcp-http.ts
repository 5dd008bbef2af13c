import {
  type AuthInfo,
  createMcpHandler,
  type EventId,
  type EventStore,
  isLegacyRequest,
  type JSONRPCMessage,
  type McpHttpHandler,
  type McpServer,
  originValidationResponse,
  type ServerContext,
  type StreamId,
  validateHostHeader,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { randomId } from '../random-id.js';
import type { Runtime } from '../runtime/create-runtime.js';
import { servedArtifacts } from './artifact-resources.js';
import { type McpRounds, mcpRounds } from './input-required.js';
import { listenForTasks } from './listen-tasks.js';
import { memoryTaskHost } from './memory-tasks.js';
import { paramHeadersOf, refuseParamMismatch } from './param-headers.js';
import {
  defaultServerInfo,
  type McpCaller,
  type McpTasks,
  mcpServer,
  type ServeMcpOptions,
} from './serve-mcp.js';
import { answerTaskPoll } from './task-poll.js';
import type { McpTaskHost } from './tasks.js';

/** Options of {@link serveMcpStateless}. */
export interface ServeMcpStatelessOptions extends ServeMcpOptions {
  /**
   * Signs the `requestState` of 2026 rounds (a tool's asks as `input_required` results), at least
   * 32 bytes; every server that may get a client's retry needs the same key. Default: a random key
   * of this handler's, enough where one process serves every round (a retry after a restart is
   * refused with `-32602` and the client starts over). `false`: no rounds — an ask of a 2026
   * request answers `unsupported`.
   */
  requestStateKey?: string | false;
  /**
   * Makes each round's state good for one retry across processes: answers whether `nonce` is used
   * for the first time, remembering it until `until` (ms since the epoch), in a store every
   * process shares. Default: remembered in this handler's memory (one process).
   */
  useStateOnce?: (nonce: string, until: number, caller: McpCaller) => boolean | Promise<boolean>;
  /**
   * Adds what is outside toolctx with the SDK's own API (prompts, resources, completions) to each
   * server made here: a 2025 session's, and each 2026 request's.
   */
  configureServer?: (server: McpServer) => void;
  /**
   * Where MCP tasks live (the Tasks extension, for clients that declare it): a call of a tool whose
   * `taskSupport` is `required`, or an `optional` one (the default) that has not settled within
   * `taskWindowMs`, is answered as a task the client follows with `tasks/get`, `tasks/update` and
   * `tasks/cancel`. Default: {@link memoryTaskHost} (this process). `false`: no tasks (the server
   * does not declare the extension, and a `required` tool answers `-32021`).
   *
   * @experimental
   */
  tasks?: McpTaskHost | false;
  /** How long an `optional` tool's call runs before it becomes a task, in ms; a tool's own `taskWindowMs` wins. Default 1000. */
  taskWindowMs?: number;
  /**
   * How often a `subscriptions/listen` that follows tasks (`notifications: { taskIds }`) reads
   * them, in ms: a change reaches the client as `notifications/tasks` within about this long.
   * Default 500. A task is read until it settles; an identity holds at most 8 such listens open
   * at once (a ninth is answered 429, `-32000`).
   */
  taskPollMs?: number;
}

/**
 * The MCP 2026-07-28 revision alone: the SDK's stateless `createMcpHandler` (`legacy: 'reject'`, so
 * a 2025 request is answered `-32022` naming the revisions served), a server per request serving
 * the runtime's tools with {@link serveMcp}'s behaviour. A request that names no log level in its
 * `_meta` gets no log entries. What a host puts in front of it to serve 2025 sessions beside it
 * (routing on the SDK's `isLegacyRequest`): {@link serveMcpHttp} on Node, `mountMcp` on Workers.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { serveMcpStateless } from '@toolctx/core/mcp';
 * declare const tools: AnyTool[];
 *
 * const mcp = serveMcpStateless(createRuntime({ tools }));
 * export default { fetch: (request: Request) => mcp.fetch(request) };
 * ```
 */
export function serveMcpStateless(runtime: Runtime, options: ServeMcpStatelessOptions = {}): McpHttpHandler {
  const key = options.requestStateKey ?? randomKey();
  const { useStateOnce } = options;
  const ownerOfCaller = (caller: McpCaller) => JSON.stringify(options.identify?.(caller) ?? null);
  const ownerOf = (ctx: ServerContext) => ownerOfCaller(callerOf(ctx));
  const rounds =
    key === false
      ? undefined
      : mcpRounds(
          key,
          ownerOf,
          useStateOnce && ((nonce, until, ctx) => useStateOnce(nonce, until, callerOf(ctx))),
        );
  const host = options.tasks ?? memoryTaskHost(runtime);
  const tasks = host === false ? undefined : { host, ownerOf, windowMs: options.taskWindowMs ?? 1000 };
  const handler = createMcpHandler(() => configured(runtime, options, 'modern', rounds, tasks), {
    legacy: 'reject',
  });
  // In front of the SDK's handler: the custom-header check of tools that declare `x-mcp-header`,
  // a listen that follows tasks (the SDK's listen router knows only list changes), and task polls
  // answered from the host without making a server for them (task-poll.ts).
  const headers = paramHeadersOf(runtime.tools.values());
  const serverInfo = options.serverInfo ?? defaultServerInfo;
  const servesArtifacts = servedArtifacts(runtime, options) !== undefined;
  const listen =
    host === false
      ? undefined
      : { host, pollMs: options.taskPollMs ?? 500, servesArtifacts, open: new Map() };
  if (headers.size === 0 && !listen) return handler;
  return {
    ...handler,
    fetch: async (request, fetchOptions) => {
      const parsed = fetchOptions?.parsedBody;
      const refused = headers.size > 0 ? await refuseParamMismatch(request, headers, parsed) : undefined;
      if (refused) return refused;
      const caller = fetchOptions?.authInfo ? { authInfo: fetchOptions.authInfo } : {};
      if (host !== false && request.headers.get('mcp-method') === 'tasks/get') {
        const body =
          parsed ??
          (await request
            .clone()
            .json()
            .catch(() => undefined));
        const owner = ownerOfCaller(caller);
        const polled = await answerTaskPoll(request, body, host, owner, serverInfo, servesArtifacts);
        if (polled) return polled;
        return handler.fetch(request, { ...fetchOptions, parsedBody: body });
      }
      const listening = listen && (await listenForTasks(request, ownerOfCaller(caller), listen, parsed));
      return listening || handler.fetch(request, fetchOptions);
    },
  };
}

const callerOf = (ctx: ServerContext): McpCaller =>
  ctx.http?.authInfo ? { authInfo: ctx.http.authInfo } : {};

/** 32 random bytes, as hex. */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

function configured(
  runtime: Runtime,
  options: ServeMcpStatelessOptions,
  era: 'legacy' | 'modern',
  rounds?: McpRounds,
  tasks?: McpTasks,
): McpServer {
  const server = mcpServer(runtime, options, era, rounds, tasks);
  options.configureServer?.(server);
  return server;
}

/** Options of {@link serveMcpHttp}. */
export interface ServeMcpHttpOptions extends ServeMcpStatelessOptions {
  /**
   * The host names served, without a port, against DNS rebinding: a `Host` elsewhere is a 403, and
   * an `Origin` must be on one of them. Default: `localhost`, `127.0.0.1` and `[::1]`, any port.
   */
  allowedHosts?: string[];
  /** A 2025 session no request has used for this long is closed, in ms. Default 30 minutes. */
  sessionIdleMs?: number;
  /**
   * The most 2025 sessions open at once (each holds a server and its event store in memory): past
   * it an `initialize` is refused with 503, naming this option. Default 1000.
   */
  maxSessions?: number;
  /** What a 2025 session's event store keeps per stream, for `Last-Event-ID` resumes. Default 1000. */
  maxEventsPerStream?: number;
}

/** What {@link serveMcpHttp} answers with: a web-standard `fetch`, and `close`. */
export interface McpHttpServer {
  /**
   * Serves one MCP streamable HTTP request. `authInfo` is what the host verified (a bearer token);
   * it reaches `identify`. A client's hang-up is `request.signal`.
   */
  fetch(request: Request, options?: { authInfo?: AuthInfo }): Promise<Response>;
  /** Closes every 2025 session and ends the 2026 requests in flight. */
  close(): Promise<void>;
}

interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport;
  owner: string;
  seen: number;
}

/**
 * Serves a runtime's tools over MCP streamable HTTP to clients of both revisions, for hosts with a
 * web-standard `fetch` (Node behind an adapter, Deno, Bun). A request is routed by the SDK's own
 * `isLegacyRequest`: a 2026-07-28 request (its `_meta` names the revision) goes to the SDK's
 * stateless handler (`createMcpHandler`, `legacy: 'reject'`), a server per request; a 2025-11-25
 * one to a session made by its `initialize` (the SDK's streamable HTTP transport, an in-memory
 * event store so a dropped stream resumes with `Last-Event-ID`). Both serve the same tools with
 * {@link serveMcp}'s behaviour; a session answers only the identity (`identify`) that initialized
 * it, and a request of another gets the 404 of an unknown session. A 2026 request that names no
 * log level in `_meta` gets no log entries. Hosts outside `allowedHosts` are refused with 403.
 *
 * On Cloudflare Workers use `mountMcp` from `@toolctx/edge`, which keeps 2025 sessions in Durable
 * Objects.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { serveMcpHttp } from '@toolctx/core/mcp';
 * declare const tools: AnyTool[];
 * declare function toWebRequest(req: import('node:http').IncomingMessage): Request;
 * declare function sendWebResponse(res: import('node:http').ServerResponse, response: Response): Promise<void>;
 *
 * const mcp = serveMcpHttp(createRuntime({ tools }));
 * createServer(async (req, res) => sendWebResponse(res, await mcp.fetch(toWebRequest(req)))).listen(3000);
 * ```
 */
export function serveMcpHttp(runtime: Runtime, options: ServeMcpHttpOptions = {}): McpHttpServer {
  const modern = serveMcpStateless(runtime, options);
  const sessions = new Map<string, LegacySession>();
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const hosts = (options.allowedHosts ?? ['localhost', '127.0.0.1', '[::1]']).map((host) =>
    host.toLowerCase(),
  );
  const ownerOf = (authInfo: AuthInfo | undefined) =>
    JSON.stringify(options.identify?.(authInfo ? { authInfo } : {}) ?? null);

  const sweep = (now: number) => {
    for (const [id, session] of sessions) {
      if (now - session.seen < idleMs) continue;
      sessions.delete(id);
      void session.transport.close();
    }
  };

  const legacy = async (request: Request, authInfo: AuthInfo | undefined): Promise<Response> => {
    const now = Date.now();
    sweep(now);
    const owner = ownerOf(authInfo);
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      // Another identity's session is one that does not exist, to that identity.
      if (!session || session.owner !== owner) return sessionNotFound();
      session.seen = now;
      return session.transport.handleRequest(request, authInfo ? { authInfo } : undefined);
    }
    const maxSessions = options.maxSessions ?? 1000;
    if (sessions.size >= maxSessions) {
      return jsonRpcRefusal(
        503,
        -32000,
        `This server holds its limit of ${maxSessions} MCP sessions: close one (DELETE), wait for idle ones to lapse, or raise maxSessions.`,
      );
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomId('mcp_'),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, owner, seen: Date.now() });
      },
      eventStore: memoryEventStore(options.maxEventsPerStream ?? 1000),
      retryInterval: 1000,
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await configured(runtime, options, 'legacy').connect(transport);
    const response = await transport.handleRequest(request, authInfo ? { authInfo } : undefined);
    // A request that opened no session (not an initialize) leaves nothing behind.
    if (transport.sessionId === undefined) await transport.close();
    return response;
  };

  return {
    async fetch(request, { authInfo } = {}) {
      // The Host a request came with; one made in process (a test, a framework) names it in its URL.
      const host = validateHostHeader(request.headers.get('host') ?? new URL(request.url).host, hosts);
      if (!host.ok) return jsonRpcRefusal(403, -32000, host.message);
      const foreign = originValidationResponse(request, hosts);
      if (foreign) return foreign;
      return (await isLegacyRequest(request))
        ? legacy(request, authInfo)
        : modern.fetch(request, authInfo ? { authInfo } : undefined);
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all([modern.close(), ...open.map(({ transport }) => transport.close())]);
    },
  };
}

function jsonRpcRefusal(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

const sessionNotFound = () => jsonRpcRefusal(404, -32001, 'Session not found');

/**
 * The SDK's `EventStore` in memory: each stream's newest `maxPerStream` messages, so a client that
 * reconnects with `Last-Event-ID` gets what it missed on that stream.
 */
function memoryEventStore(maxPerStream: number): EventStore {
  const streams = new Map<StreamId, { id: EventId; message: JSONRPCMessage }[]>();
  let next = 0;
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}~${next++}`;
      const events = streams.get(streamId) ?? [];
      events.push({ id, message });
      if (events.length > maxPerStream) events.shift();
      streams.set(streamId, events);
      return id;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = lastEventId.slice(0, lastEventId.lastIndexOf('~'));
      const events = streams.get(streamId) ?? [];
      const at = events.findIndex((event) => event.id === lastEventId);
      if (at < 0)
        throw new Error(`No event ${lastEventId} to resume after: it was never sent, or is too old.`);
      for (const event of events.slice(at + 1)) await send(event.id, event.message);
      return streamId;
    },
  };
}
