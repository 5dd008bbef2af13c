import { isLegacyRequest, type McpHttpHandler, type McpServer } from '@modelcontextprotocol/server';
import type { Identity, Runtime } from '@toolctx/core';
import { type ServeMcpOptions, type ServeMcpStatelessOptions, serveMcpStateless } from '@toolctx/core/mcp';
import type { Hono } from 'hono';
import type { Authenticate } from '../door/authenticate.js';
import { executionContextOf } from '../door/execution-context.js';
import { BodyTimeoutError } from '../door/read-body.js';
import { sharedRuntime } from '../door/shared-runtime.js';
import {
  type IdentityCallLimit,
  identityStateBinding,
  identityStateOf,
  type RunDirectory,
} from '../run-host/index.js';
import { type DnsRebindingOptions, refuseForeignHost } from './dns-rebinding.js';
import type { McpSession } from './mcp-session.js';
import { answerModern } from './modern-answer.js';
import { runTaskHost } from './run-tasks.js';
import {
  callSlotHeader,
  callsOf,
  type McpSessionLimit,
  releaseSessionSlot,
  slotHeader,
  takeCallSlots,
  takeSessionSlot,
} from './session-slots.js';
import {
  bodyTooLarge,
  bodyTooSlow,
  emptyBatch,
  identityHeader,
  isEmptyBatch,
  jsonRpcError,
  maxMessageBytes,
  readBoundedText,
  sessionNotFound,
  unauthorized,
} from './wire.js';

/** Options of {@link mcpFetch} and {@link mountMcp}; `E` is the Worker's env. */
export interface McpRouteOptions<E = unknown> extends DnsRebindingOptions {
  /**
   * Establishes who calls, from the request (a bearer token, an Access header) and the Worker's
   * env (where its secrets are): the same {@link Authenticate} the HTTP door takes, so one
   * function serves both. `null` refuses with 401, `{ refused: message }` with 401 and that
   * message. Runs for every request; calls run with the identity it returns, and a session
   * answers only the identity that initialized it.
   *
   * **Without it the endpoint is open**: every caller is anonymous, anyone who can reach the URL
   * can list and call every tool, and any caller who knows a session id can use that session.
   * Leave it out only for a Worker nobody else can reach (local development, a private network).
   */
  authenticate?: Authenticate<E>;
  /**
   * The URL of this endpoint's OAuth protected-resource metadata (RFC 9728), which the app
   * serves: a 401 names it in `WWW-Authenticate: Bearer resource_metadata="…"`, as the MCP
   * authorization spec asks, so a client can discover where to get a token. Without it a 401
   * carries a plain `Bearer realm="mcp"` challenge.
   */
  resourceMetadataUrl?: string;
  /**
   * Caps the sessions one identity (tenant and principal) holds at once, counted by the
   * `IdentityStateObject` bound as `binding` (the object that counts the identity's runs; sessions
   * are counted apart from runs). Past `maxSessionsPerIdentity` (default 100) an `initialize` is
   * refused with 429, a JSON-RPC error naming the limit and the option, and `Retry-After`; other
   * identities and the sessions already open carry on. A session gives its slot back when it is
   * closed (DELETE) or lapses (its object's alarm, within an hour of its eviction). Anonymous callers
   * are not counted. Needs the Worker's env: `mountMcp` passes it, `mcpFetch` takes it fourth.
   */
  sessionLimit?: McpSessionLimit;
  /**
   * Caps the `tools/call` requests one identity (tenant and principal) has in flight at once,
   * across all its sessions, counted by the `IdentityStateObject` bound as `binding` (with the
   * HTTP door's one-shot calls when its `callLimit` names the same binding). Past
   * `maxCallsPerIdentity` (default 16) the POST carrying the call is refused with 429,
   * `Retry-After: 1` and a JSON-RPC error naming the limit and the option, before the tool runs;
   * other identities, and the session itself, carry on. A call's slot comes back when it is
   * answered, cancelled (`notifications/cancelled`, a DELETE of its session) or, on 2026-07-28, its
   * client hangs up (a 2025 call whose client dropped its stream goes on, holding it), and lapses within
   * `leaseMs` if its session object dies mid-call (see {@link IdentityCallLimit}). Anonymous
   * callers are not counted. Needs the Worker's env: `mountMcp` passes it, `mcpFetch` takes it fourth.
   */
  callLimit?: IdentityCallLimit;
  /**
   * Serves MCP 2026-07-28 beside 2025-11-25: a request whose `_meta` names the 2026 revision (the
   * SDK's `isLegacyRequest` is false) is answered in the Worker by the SDK's stateless handler
   * (`serveMcpStateless` from `@toolctx/core/mcp`) with this runtime's tools — give it the function
   * `createMcpSession` got, so both revisions share the isolate's runtime. Without it a 2026
   * request is answered `-32022` naming 2025-11-25, and the SDK client's negotiation falls back.
   */
  runtimeFor?: (env: E) => Runtime;
  /** `serveMcp`'s options for 2026 requests' servers (the session class's `serveOptions` for 2025). */
  serveOptions?: ServeMcpOptions;
  /**
   * The key that signs the `requestState` of 2026 rounds (a tool's asks as `input_required`
   * results), at least 32 bytes, from a secret binding (`wrangler secret put MCP_STATE_KEY`):
   * `(env) => env.MCP_STATE_KEY`. A client's retry may reach any isolate, so every one needs the
   * same key. Without it an ask of a 2026 request answers `unsupported`, naming this option.
   */
  requestStateKey?: (env: E) => string | undefined;
  /**
   * The `IdentityStateObject` binding that makes each round's state good for one retry across
   * the deployment (a retry may reach any isolate): the caller's object remembers each state used,
   * for its ten minutes (anonymous callers share 16 objects). Default: `callLimit`'s or
   * `sessionLimit`'s binding when one is set; without any, one isolate's memory.
   */
  roundsBinding?: string;
  /**
   * Adds prompts, resources and completions to each 2026 request's server with the SDK's API: the
   * same function the session class's `configureServer` calls, so both revisions serve the same.
   */
  configureServer?: (server: McpServer) => void;
  /**
   * Serves MCP tasks (the Tasks extension of 2026-07-28, for clients that declare it) as runs of
   * these runs' run host, one run per task: `(env) => durableObjectRuns(env.RUNS, { identityState:
   * env.IDENTITY_STATE })`, with a run host serving the same tools. A call of a tool whose
   * `taskSupport` is `required`, or an `optional` one still running after its window
   * (`taskWindowMs`), is answered as a task once its call is recorded in its run's Durable Object,
   * so `tasks/get`, `tasks/update` and `tasks/cancel` reach it from any isolate (they are routed by
   * the task id, which is the run's); a task answers only the identity that started it, lives as
   * long as its run is kept (the run host's `retentionMs` after the call settles; give the same
   * value as `taskTtlMs`), and survives a restart of its object as the run does. Without it 2026
   * clients get no tasks, and a `required` tool answers `-32021`.
   *
   * @experimental
   */
  tasks?: (env: E) => RunDirectory;
  /** How long a task is kept, in ms: the run host's `retentionMs`. Default a day, its default. */
  taskTtlMs?: number;
  /** How long an `optional` tool's call runs before it becomes a task, in ms; a tool's own `taskWindowMs` wins. Default 1000. */
  taskWindowMs?: number;
}

// One stateless handler per route options and runtime: a Worker's runtime lives as long as its isolate.
const modernHandlers = new WeakMap<object, WeakMap<Runtime, McpHttpHandler>>();

function modernHandler<E>(options: McpRouteOptions<E>, runtime: Runtime, env: E): McpHttpHandler {
  let byRuntime = modernHandlers.get(options);
  if (!byRuntime) {
    byRuntime = new WeakMap();
    modernHandlers.set(options, byRuntime);
  }
  let handler = byRuntime.get(runtime);
  if (!handler) {
    const serve = options.serveOptions ?? {};
    handler = serveMcpStateless(runtime, {
      ...serve,
      identify: (caller) =>
        (caller.authInfo?.extra?.identity as Identity | undefined) ?? serve.identify?.(caller),
      ...(options.configureServer ? { configureServer: options.configureServer } : {}),
      requestStateKey: options.requestStateKey?.(env) || false,
      ...stateUse(options, env),
      tasks: options.tasks ? runTaskHost(options.tasks(env), runtime, { ttlMs: options.taskTtlMs }) : false,
      ...(options.taskWindowMs === undefined ? {} : { taskWindowMs: options.taskWindowMs }),
    });
    byRuntime.set(runtime, handler);
  }
  return handler;
}

/**
 * Routes one MCP streamable HTTP request to its session's Durable Object. First, against DNS
 * rebinding, a `Host` not in `allowedHosts` (default: localhost, 127.0.0.1, [::1]) or an `Origin`
 * not allowed is a 403, before anything else; then `authenticate(request, env, ctx)` (`null` or
 * `{ refused }` is a 401 with a `WWW-Authenticate` challenge). The Worker reads a POST body whole, at most 1 MiB counted as it
 * arrives (else 413, before any object parses it), and answers a method other than POST, GET and
 * DELETE with 405 itself.
 *
 * **Without `authenticate` the endpoint is open to anyone who can reach it**: pass one for any
 * Worker others can reach.
 *
 * - With an `mcp-session-id`, the request goes to the object that id names. The session belongs to
 *   the identity that initialized it: a request from any other identity (another tenant, principal
 *   or conversation; anonymous and identified count as different) gets the very 404 of a session
 *   id that names no session, same status, body and headers, and changes nothing in the session
 *   (see {@link McpSession}). On a 404 the MCP client starts a new session, as the protocol asks.
 * - `env` is what `authenticate` gets as its second argument (pass the Worker's env), and `ctx`
 *   its third (pass the handler's `ExecutionContext`: its `props` carry an OAuth wrapper's user).
 * - Without one, only a POST whose body is a single `initialize` starts a session: a new object,
 *   whose id becomes the session id. Anything else is refused here with the SDK transport's
 *   answer (400 "Mcp-Session-Id header is required", naming initialize; a parse error for a body
 *   that is not JSON), and no object is created for it.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { mcpFetch } from '@toolctx/edge';
 * import { createMcpSession } from '@toolctx/edge/durable-objects';
 * declare const tools: AnyTool[];
 * export class ToolsMcpSession extends createMcpSession(() => createRuntime({ tools })) {}
 * export default {
 *   // No authenticate: open to anyone who can reach it, so only for local development.
 *   fetch: (request, env) => mcpFetch(request, env.MCP_SESSIONS),
 * } satisfies ExportedHandler<{ MCP_SESSIONS: DurableObjectNamespace }>; // bound to ToolsMcpSession in wrangler.jsonc
 * ```
 */
export async function mcpFetch<E = unknown>(
  request: Request,
  sessions: DurableObjectNamespace,
  options: McpRouteOptions<E> = {},
  env?: E,
  ctx?: ExecutionContext,
): Promise<Response> {
  const foreign = refuseForeignHost(request, options);
  if (foreign) return foreign;
  const identity = options.authenticate ? await options.authenticate(request, env as E, ctx) : undefined;
  if (identity === null) return unauthorized(options.resourceMetadataUrl);
  if (identity && 'refused' in identity) {
    return unauthorized(options.resourceMetadataUrl, String(identity.refused));
  }
  const headers = new Headers(request.headers);
  headers.delete(identityHeader);
  headers.delete(slotHeader);
  headers.delete(callSlotHeader);
  if (identity) headers.set(identityHeader, JSON.stringify(identity));
  // The session object counts the calls: the Worker tells it where, on every request.
  if (identity && options.callLimit) headers.set(callSlotHeader, JSON.stringify(options.callLimit));
  if (request.method !== 'POST' && request.method !== 'GET' && request.method !== 'DELETE') {
    return jsonRpcError(405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
  }
  // The body is read here, whole and bounded, so a session object never answers before it has
  // read what the Worker streams to it.
  let body: string | undefined;
  if (request.method === 'POST') {
    try {
      body = await readBoundedText(request, maxMessageBytes);
    } catch (error) {
      if (error instanceof BodyTimeoutError) return bodyTooSlow(error.timeoutMs);
      throw error;
    }
    if (body === undefined) return bodyTooLarge(maxMessageBytes);
    if (isEmptyBatch(body)) return emptyBatch();
  }
  if (body !== undefined) {
    const modern = await modernRequest(request, headers, body, options, env, identity ?? undefined, ctx);
    if (modern) return modern;
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
  const id = sessions.newUniqueId();
  const limit = options.sessionLimit;
  const full = await takeSessionSlot(limit, env, identity ?? undefined, id.toString());
  if (full) return full;
  const open = () => sessions.get(id).fetch(new Request(request, { headers, body }));
  if (!limit || !identity) return open();
  // The session object gives the slot back when its session ends; one that never started, here.
  headers.set(slotHeader, limit.binding);
  const giveBack = () => releaseSessionSlot(env, limit.binding, identity, id.toString());
  let opened: Response;
  try {
    opened = await open();
  } catch (error) {
    await giveBack();
    throw error;
  }
  if (!opened.ok) await giveBack();
  return opened;
}

/** Where a round's state is used once: the caller's IdentityStateObject, when the route names one. */
function stateUse<E>(options: McpRouteOptions<E>, env: E): Pick<ServeMcpStatelessOptions, 'useStateOnce'> {
  const binding = options.roundsBinding ?? options.callLimit?.binding ?? options.sessionLimit?.binding;
  if (!binding) return {};
  const namespace = identityStateBinding(env, binding, 'mountMcp roundsBinding');
  return {
    useStateOnce: (nonce, until, caller) => {
      const identity = caller.authInfo?.extra?.identity as Identity | undefined;
      const stub = identity
        ? identityStateOf(namespace, identity)
        : namespace.get(namespace.idFromName(`mcp-rounds:${nonce.slice(-1)}`));
      return stub.useOnce(nonce, until);
    },
  };
}

/**
 * Answers a 2026-07-28 request (`isLegacyRequest` false), or nothing for a 2025 one. With
 * `callLimit`, each `tools/call` in it holds a slot of its identity's until its response ends.
 */
async function modernRequest<E>(
  request: Request,
  headers: Headers,
  text: string,
  options: McpRouteOptions<E>,
  env: E | undefined,
  identity: Identity | undefined,
  ctx: ExecutionContext | undefined,
): Promise<Response | undefined> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined; // the 2025 path answers a parse error
  }
  if (!surelyModern(body) && (await isLegacyRequest(request, body))) return undefined;
  if (options.runtimeFor && request.headers.get('mcp-method') === 'tasks/get') {
    // A task poll answers at once, and never as a stream: no call slot, no hang-up to watch, no
    // request of its own for the SDK (it reads the parsed body, and the 2026 path takes the caller
    // from authInfo, never from headers).
    const handler = modernHandler(options, sharedRuntime(options.runtimeFor, env as E), env as E);
    return handler.fetch(
      request,
      identity ? { authInfo: identityAuth(identity), parsedBody: body } : { parsedBody: body },
    );
  }
  // Aborted when the client hangs up, or the request's own signal fires: the SDK's transport then
  // closes, and the tool's signal fires. (One controller and a listener cost less than
  // `AbortSignal.any`, which this path would pay on every request.)
  const hangUp = new AbortController();
  if (request.signal.aborted) hangUp.abort(request.signal.reason);
  else request.signal.addEventListener('abort', () => hangUp.abort(request.signal.reason), { once: true });
  // No body: the SDK gets the parsed one (below), so a stream of the text would be made for nothing.
  const forward = new Request(request.url, { method: 'POST', headers, signal: hangUp.signal });
  if (!options.runtimeFor) {
    // The revision's own refusal, which a negotiating client answers by falling back to 2025-11-25.
    const id = (body as { id?: unknown } | null)?.id ?? null;
    const message =
      'This server serves MCP 2025-11-25 only: its mountMcp has no runtimeFor to serve 2026-07-28 with.';
    return Response.json(
      { jsonrpc: '2.0', id, error: { code: -32022, message, data: { supported: ['2025-11-25'] } } },
      { status: 400 },
    );
  }
  const handler = modernHandler(options, sharedRuntime(options.runtimeFor, env as E), env as E);
  const limit = options.callLimit;
  const calls = limit && identity ? callsOf(text).calls : [];
  const slots =
    limit && identity && calls.length > 0 ? await takeCallSlots(limit, env, identity, calls) : undefined;
  if (slots instanceof Response) return slots;
  let released = false;
  // Giving the slots back outlives a client that hung up: the request's context waits for it.
  let slotsBack = () => {};
  if (slots) ctx?.waitUntil(new Promise<void>((resolve) => (slotsBack = resolve)));
  const release = async () => {
    if (released) return;
    released = true;
    await Promise.all([...(slots?.values() ?? [])].map((slot) => slot.release()));
    slotsBack();
  };
  // The slots come back when the answer has gone out, or the client hung up on it.
  request.signal.addEventListener('abort', () => void release(), { once: true });
  try {
    // The body parsed here goes along, so the SDK's handler neither clones the request nor reads
    // and parses its body again.
    const answer = handler.fetch(
      forward,
      identity ? { authInfo: identityAuth(identity), parsedBody: body } : { parsedBody: body },
    );
    return await answerModern(request, answer, hangUp, release);
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * Whether the SDK's `isLegacyRequest` would surely say no, decided without it (it validates the
 * message against the JSON-RPC schemas, which costs more than the rest of the routing): one
 * JSON-RPC request, other than `initialize`, whose `_meta` claims a protocol version. The SDK
 * classifies such a message as 2026-07-28 or refuses it, never as 2025; anything else is left to
 * `isLegacyRequest`.
 */
function surelyModern(body: unknown): boolean {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || 'result' in body || 'error' in body) return false;
  const { id, method, params } = body;
  if (typeof method !== 'string' || method === 'initialize') return false;
  if (typeof id !== 'string' && typeof id !== 'number') return false;
  const meta = isPlainObject(params) ? params._meta : undefined;
  return isPlainObject(meta) && 'io.modelcontextprotocol/protocolVersion' in meta;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How the Worker hands its caller's identity to the SDK's handler: as `authInfo`, never from headers. */
function identityAuth(identity: Identity) {
  return { token: '', clientId: '', scopes: [], extra: { identity } };
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
 * {@link mcpFetch} with the Durable Object namespace bound as `binding`, so each MCP session
 * answers only the identity `authenticate` gave when it was initialized; to anyone else it is a
 * session that does not exist (404). Only the hosts in `allowedHosts` are served (default: the
 * loopback names `wrangler dev` uses); list the names a deployed Worker is reached at.
 *
 * **Without `authenticate` every tool is open to anyone who can reach the endpoint.**
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { mountMcp } from '@toolctx/edge';
 * type Bindings = { MCP_SESSIONS: DurableObjectNamespace; TOKEN_SECRET: string };
 * declare function verifyToken(header: string | null, secret: string): { tenant: string; principal: string } | null;
 *
 * const app = new Hono<{ Bindings: Bindings }>();
 * mountMcp(app, {
 *   binding: 'MCP_SESSIONS',
 *   allowedHosts: ['tools.example.com'],
 *   // Leave authenticate out and anyone who can reach /mcp can call every tool.
 *   authenticate: (request, env: Bindings) => {
 *     if (!env.TOKEN_SECRET) return { refused: 'TOKEN_SECRET is not set for this Worker.' };
 *     return verifyToken(request.headers.get('authorization'), env.TOKEN_SECRET);
 *   },
 * });
 * export default app;
 * ```
 */
export function mountMcp<E = unknown>(
  // biome-ignore lint/suspicious/noExplicitAny: any hono app whose bindings hold the namespace.
  app: Hono<any>,
  options: McpRouteOptions<E> & { binding: string; path?: string },
): void {
  app.all(options.path ?? '/mcp', (c) => {
    const sessions = (c.env as Record<string, unknown>)[options.binding];
    if (!sessions || typeof (sessions as DurableObjectNamespace).idFromString !== 'function') {
      throw new TypeError(
        `mountMcp: env.${options.binding} is not a Durable Object namespace. Bind your McpSession subclass under that name in wrangler.jsonc.`,
      );
    }
    return mcpFetch(
      c.req.raw,
      sessions as DurableObjectNamespace,
      options,
      c.env as E,
      executionContextOf(c),
    );
  });
}
