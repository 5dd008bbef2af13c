import { type ArtifactStore, artifactScope, type Identity, type Runtime, ToolctxError } from '@toolctx/core';
import { sseHeaders } from '@toolctx/core/sse';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { foreignHost, loopbackHosts } from '../door/allowed-hosts.js';
import type { Authenticate } from '../door/authenticate.js';
import type { CallAnswer, CallFormat } from '../door/call-answer.js';
import type { Reply } from '../door/door-error.js';
import { executionContextOf } from '../door/execution-context.js';
import { defaultBodyTimeoutMs } from '../door/read-body.js';
import { sharedRuntime } from '../door/shared-runtime.js';
import {
  createMemoryRunDirectory,
  type DoorCall,
  type IdentityCallLimit,
  type RunDirectory,
  takeCallSlot,
} from '../run-host/index.js';
import { artifactResponse } from './artifact-response.js';
import { corsMiddleware, type ToolServerCors } from './cors.js';
import { errorResponse, HttpError } from './http-error.js';
import { jsonHeaders, jsonStreamHeaders } from './json-stream.js';
import { answerOneShot } from './one-shot-call.js';
import {
  idOf,
  limitOf,
  parseApproval,
  parseCall,
  parseStartRun,
  phaseOf,
  resumePoint,
} from './parse-request.js';
import { readJson } from './read-json.js';

/** The 401's message when `authenticate` answers `null`. */
const noIdentity =
  "This server's authenticate found no identity in the request: send the credentials it expects (such as Authorization: Bearer <token>).";

/**
 * Options of {@link createToolServer}. `runtimeFor(env)` gives the runtime for the Worker's
 * bindings; the server calls it once per `env` object and keeps what it made, so write it as a
 * plain function (`(env) => createRuntime({ ... })`), without a cache of your own. Without
 * `runs`, runs live in memory ({@link createMemoryRunDirectory}, one per runtime); on Cloudflare
 * pass `(env) => durableObjectRuns(env.RUNS)`.
 *
 * @example
 * ```ts
 * import { type AnyTool, type ArtifactStore, createRuntime } from '@toolctx/core';
 * import { type Authenticate, createToolServer, durableObjectRuns, type ExampleWorkerEnv, type ToolServerOptions } from '@toolctx/edge';
 * declare const tools: AnyTool[];
 * declare const authenticate: Authenticate<ExampleWorkerEnv>;
 * declare function storeFor(env: ExampleWorkerEnv): ArtifactStore;
 * const options: ToolServerOptions<ExampleWorkerEnv> = {
 *   runtimeFor: (env) => createRuntime({ tools, artifacts: storeFor(env) }),
 *   runs: (env) => durableObjectRuns(env.RUNS),
 *   authenticate,
 * };
 * const app = createToolServer(options);
 * ```
 */
export interface ToolServerOptions<E> {
  /**
   * The runtime whose tools a request sees, for the request's bindings. Called once per `env`
   * object (on Node, where hono's env is made per request, return one runtime made up front).
   * Pass the same function to {@link durable-objects!createRunHost}: both then use the one runtime it made.
   */
  runtimeFor: (env: E) => Runtime;
  /** Where runs live; in memory when absent. */
  runs?: RunDirectory | ((env: E) => RunDirectory);
  /** The only source of identity: never the body. */
  authenticate: Authenticate<E>;
  /**
   * Largest request body accepted, in bytes; larger is a 413. Default 1 MiB. A function of the
   * bindings (such as a var) is asked per request; `undefined` from it is the default. A run keeps
   * a body's `state` or a waiting call's arguments over 2 MB in pieces (a Durable Object value's limit).
   */
  maxBodyBytes?: number | ((env: E) => number | undefined);
  /**
   * Pages on other origins that may call the door. Absent, it sends no CORS headers (same
   * origin only); present, preflights are answered before `authenticate`. A function of the
   * bindings (such as a var listing origins) is called once per `env` object; `undefined` means none.
   */
  cors?: ToolServerCors | ((env: E) => ToolServerCors | undefined);
  /**
   * Caps one identity's calls in flight on `POST /calls` (default 16 when set), counted by the
   * `IdentityStateObject` bound as `binding` across every isolate, so a flood from one identity is
   * refused with 429 and `Retry-After` while others' calls go on (see {@link IdentityCallLimit}).
   * Without it one-shot calls are not counted. A function of the bindings (such as a var) is asked
   * per request; `undefined` from it means no cap. Calls in a run are bounded by the run's limits.
   */
  callLimit?: IdentityCallLimit | ((env: E) => IdentityCallLimit | undefined);
  /**
   * Host names (no port, IPv6 in brackets) the door answers in a request's `Host` header; any
   * other is a 421 (`misdirected-request`) naming the host and this option, before CORS and
   * `authenticate`, so a page on a name rebound to this server's address (DNS rebinding) reaches
   * nothing. Default `['localhost', '127.0.0.1', '[::1]']`, the names `wrangler dev` and a Node
   * server on loopback are reached at: a deployed Worker lists the names it is reached at
   * (`['tools.example.com']`). Compared without the port and case-insensitively; a request
   * without `Host` (a service binding, `app.request` in a test) passes. The MCP door's option of
   * the same name makes the same check. A function of the bindings (such as a var listing names)
   * is asked per request; `undefined` from it is the default.
   */
  allowedHosts?: readonly string[] | ((env: E) => readonly string[] | undefined);
  /**
   * Longest time reading a request body may take, in ms; a body still arriving then (a client
   * that trickles it) is a 408 (`request-timeout`) naming the limit, and the read is cancelled.
   * Default 10,000. A function of the bindings is asked per request; `undefined` from it is the default.
   */
  bodyTimeoutMs?: number | ((env: E) => number | undefined);
}

type App<E extends object> = Hono<{ Bindings: E; Variables: { identity: Identity } }>;

/**
 * The paths of the door's routes, which its host check, CORS and authentication guard (hono's
 * `/runs/*` matches `/runs` too).
 */
const doorPaths = ['/tools', '/runs/*', '/calls', '/approvals/*', '/artifacts/*'];

/**
 * The HTTP+SSE door: a hono app that lists tools, starts and ends runs, calls tools (JSON, or SSE
 * of the call's events and its result; in a run, or one-shot with `POST /calls`), streams a run's events with `Last-Event-ID` resume,
 * cancels calls, decides approvals and serves artifacts within the caller's own scope. Every error
 * body is an ErrorInfo.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime, type Identity } from '@toolctx/core';
 * import { createToolServer, durableObjectRuns, type ExampleWorkerEnv } from '@toolctx/edge';
 * declare const tools: AnyTool[];
 * declare function verifyToken(header: string | null, env: ExampleWorkerEnv): Promise<Identity | null>;
 *
 * const app = createToolServer<ExampleWorkerEnv>({
 *   runtimeFor: () => createRuntime({ tools }),
 *   runs: (env) => durableObjectRuns(env.RUNS),
 *   authenticate: async (request, env) => verifyToken(request.headers.get('authorization'), env),
 * });
 * export default app;
 * ```
 */
export function createToolServer<E extends object = object>(options: ToolServerOptions<E>): App<E> {
  const bodyLimit = (env: E): number =>
    (typeof options.maxBodyBytes === 'function' ? options.maxBodyBytes(env) : options.maxBodyBytes) ??
    1024 * 1024;
  const bodyTime = (env: E): number =>
    (typeof options.bodyTimeoutMs === 'function' ? options.bodyTimeoutMs(env) : options.bodyTimeoutMs) ??
    defaultBodyTimeoutMs;
  const readBody = (c: { req: { raw: Request }; env: E }, optional?: boolean) =>
    readJson(c.req.raw, bodyLimit(c.env), optional, bodyTime(c.env));
  const { runtimeFor, runs } = options;
  if (typeof runtimeFor !== 'function') {
    throw new TypeError(
      'createToolServer needs { runtimeFor: (env) => runtime }; for one runtime made up front, pass () => runtime.',
    );
  }
  const runtimeFrom = (env: E) => sharedRuntime(runtimeFor, env);
  // Runs kept in memory belong to their runtime, so each runtime gets its own directory.
  const memoryRuns = new WeakMap<Runtime, RunDirectory>();
  const runsOf = (env: E): RunDirectory => {
    if (typeof runs === 'function') return runs(env);
    if (runs) return runs;
    const runtime = runtimeFrom(env);
    let directory = memoryRuns.get(runtime);
    if (!directory) {
      directory = createMemoryRunDirectory({ runtime });
      memoryRuns.set(runtime, directory);
    }
    return directory;
  };
  const app = new Hono<{ Bindings: E; Variables: { identity: Identity } }>();
  const storeOf = (env: E): ArtifactStore => {
    const store = runtimeFrom(env).artifacts;
    if (!store) throw new HttpError(501, 'unsupported', 'This server has no artifact store to read from.');
    return store;
  };

  app.onError((error) =>
    error instanceof HttpError
      ? errorResponse(
          error.status,
          error.info,
          error.retryAfter === undefined ? undefined : { 'retry-after': String(error.retryAfter) },
        )
      : errorResponse(500, {
          kind: 'internal',
          message: 'The server failed while handling this request.',
          exception: error.name || 'Error',
          retryable: true,
        }),
  );
  app.notFound((c) =>
    errorResponse(404, {
      kind: 'not-found',
      message: `No route for ${c.req.method} ${c.req.path}.`,
      retryable: false,
    }),
  );

  // Each runs on the door's own paths only, so another door on the same app (mountMcp's /mcp,
  // mounted before or after) answers as itself: its own authentication, its own 401.
  const onDoorPaths = (handler: MiddlewareHandler) => {
    for (const path of doorPaths) app.use(path, handler);
  };

  // First of all, against DNS rebinding: a page on a rebound name gets nothing, not even CORS.
  onDoorPaths(async (c, next) => {
    const hosts =
      typeof options.allowedHosts === 'function' ? options.allowedHosts(c.env) : options.allowedHosts;
    const host = foreignHost(c.req.raw, hosts);
    if (host !== undefined) {
      throw new HttpError(
        421,
        'misdirected-request',
        `This server does not answer for the Host ${JSON.stringify(host)}: add its name to createToolServer's allowedHosts (default: localhost, 127.0.0.1, [::1]).`,
        { host, allowedHosts: [...(hosts ?? loopbackHosts)] },
      );
    }
    await next();
  });

  // Before authentication: a browser's preflight never carries the token.
  if (options.cors) onDoorPaths(corsMiddleware(options.cors));

  onDoorPaths(async (c, next) => {
    const answer = await options.authenticate(c.req.raw, c.env, executionContextOf(c));
    if (!answer) throw new HttpError(401, 'unauthenticated', noIdentity);
    if ('refused' in answer) throw new HttpError(401, 'unauthenticated', String(answer.refused));
    const identity: Identity = answer;
    c.set('identity', identity);
    await next();
  });

  app.get('/tools', (c) => {
    const phase = c.req.query('phase');
    const tools = runtimeFrom(c.env).listTools(phase === undefined ? {} : { phase: phaseOf(phase) });
    return c.json({ tools });
  });

  app.post('/runs', async (c) => {
    const body = parseStartRun(await readBody(c, true));
    const runId = `run_${crypto.randomUUID()}`;
    const info = unwrap(await runsOf(c.env).start({ ...body, runId, identity: c.get('identity') }));
    return c.json(info, 201, { location: `/runs/${runId}` });
  });

  // The caller's runs, newest first, a page at a time: a page's history, or a client finding its runs again.
  app.get('/runs', async (c) => {
    const cursor = c.req.query('cursor');
    const limit = c.req.query('limit');
    const options = {
      ...(cursor === undefined ? {} : { cursor }),
      ...(limit === undefined ? {} : { limit: Number(limit) }),
    };
    return c.json(unwrap(await runsOf(c.env).list(c.get('identity'), options)));
  });

  app.post('/runs/:runId/calls', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    const body = parseCall(await readBody(c));
    const call: DoorCall =
      body.toolCallId === undefined
        ? { tool: body.tool, args: body.args, toolCallId: `call_${crypto.randomUUID()}`, newId: true }
        : { tool: body.tool, args: body.args, toolCallId: body.toolCallId };
    const run = runsOf(c.env).get(runId);
    const identity = c.get('identity');
    const location = `/runs/${runId}/calls/${encodeURIComponent(call.toolCallId)}`;
    // Asked to answer at once: the call goes on in its run whoever listens, and its handle is
    // where its result will be.
    if (respondAsync(c.req.header('prefer'))) {
      const handle = unwrap(await run.startCall(identity, call));
      return c.json(handle, 202, {
        location,
        'preference-applied': 'respond-async',
        'x-toolctx-call-id': call.toolCallId,
      });
    }
    // Both answers are streams that start once the call has its slot (a refusal is still a real
    // 4xx): SSE of its events, or JSON after whitespace heartbeats — or, for a JSON call that
    // settled at once, its result alone. Where the run lives, a failed heartbeat write finds a
    // client that hung up and cancels the call — which local workerd needs, since it never fires
    // `request.signal` on a hang-up.
    const format = wantsSse(c.req.header('accept')) ? 'sse' : 'json';
    const answer = unwrap(await run.streamCall(identity, call, format));
    // On Cloudflare (`enable_request_signal`) the request's signal also cancels a call still
    // running; the cancel travels like any other, so it reaches the call wherever the run lives.
    if (typeof answer !== 'string')
      c.req.raw.signal.addEventListener('abort', () => keepAlive(c, run.cancel(identity, call.toolCallId)), {
        once: true,
      });
    return callResponse(answer, format, {
      'x-toolctx-call-id': call.toolCallId,
      'content-location': location,
    });
  });

  app.get('/runs/:runId/calls', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    return c.json(unwrap(await runsOf(c.env).get(runId).openCalls(c.get('identity'))));
  });

  app.get('/runs/:runId/calls/:callId', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    const callId = idOf(c.req.param('callId'), 'callId');
    return c.json(unwrap(await runsOf(c.env).get(runId).callStatus(c.get('identity'), callId)));
  });

  // One call outside any run: no run state (see one-shot-call.ts); with `callLimit`, a slot of
  // its identity's, taken once the call is known to be well formed.
  app.post('/calls', async (c) => {
    const limit = typeof options.callLimit === 'function' ? options.callLimit(c.env) : options.callLimit;
    const identity = c.get('identity');
    const format = wantsSse(c.req.header('accept')) ? 'sse' : 'json';
    const { toolCallId, answer, abort } = await answerOneShot({
      runtime: runtimeFrom(c.env),
      identity,
      body: parseCall(await readBody(c)),
      format,
      ...(limit ? { takeSlot: async () => unwrap(await takeCallSlot(limit, c.env, identity)) } : {}),
    });
    // The request's signal is listened to only by a call that outlasts the fast path: a quick
    // call has no time to be hung up on, and workerd charges for the listener on every request.
    if (typeof answer !== 'string') c.req.raw.signal.addEventListener('abort', abort, { once: true });
    return callResponse(answer, format, { 'x-toolctx-call-id': toolCallId });
  });

  app.get('/runs/:runId/events', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    const after = resumePoint(c.req.header('last-event-id') ?? null, c.req.query('after'));
    const stream = unwrap(await runsOf(c.env).get(runId).events(c.get('identity'), after));
    return new Response(stream, { headers: sseHeaders });
  });

  app.post('/runs/:runId/calls/:callId/cancel', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    const callId = idOf(c.req.param('callId'), 'callId');
    return c.json(unwrap(await runsOf(c.env).get(runId).cancel(c.get('identity'), callId)));
  });

  app.get('/runs/:runId/asks', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    return c.json(unwrap(await runsOf(c.env).get(runId).asks(c.get('identity'))));
  });

  // What the run's calls waiting for approval would run with, for the person deciding.
  app.get('/runs/:runId/approvals', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    return c.json(unwrap(await runsOf(c.env).get(runId).pendingApprovals(c.get('identity'))));
  });

  // The person's answer to a call's ask: `{ action: 'accept', values }`, `{ action: 'decline' }` or
  // `{ action: 'cancel' }`. Core checks it against the ask and takes it once.
  app.post('/runs/:runId/asks/:askId', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    const askId = idOf(c.req.param('askId'), 'askId');
    const answer = await readBody(c);
    return c.json(unwrap(await runsOf(c.env).get(runId).answerAsk(c.get('identity'), askId, answer)));
  });

  app.get('/runs/:runId', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    return c.json(unwrap(await runsOf(c.env).get(runId).info(c.get('identity'))));
  });

  app.delete('/runs/:runId', async (c) => {
    const runId = idOf(c.req.param('runId'), 'runId');
    return c.json(unwrap(await runsOf(c.env).get(runId).end(c.get('identity'))));
  });

  app.post('/approvals/:id', async (c) => {
    const approvalId = idOf(c.req.param('id'), 'approval id');
    const { runId, approved, reason } = parseApproval(await readBody(c));
    const decision = reason === undefined ? { approved } : { approved, reason };
    const run = runsOf(c.env).get(runId);
    const identity = c.get('identity');
    // Answered as a call is (a stream once the decision is taken): a decider that hangs up is
    // found by a failed heartbeat write and cancels the resumed call, as a call's caller does.
    const format = wantsSse(c.req.header('accept')) ? 'sse' : 'json';
    const answer = unwrap(await run.streamResume(identity, approvalId, decision, format));
    // Where the platform fires the request's signal, it cancels too; the run knows the call by
    // the approval that resumed it.
    if (typeof answer !== 'string')
      c.req.raw.signal.addEventListener('abort', () => keepAlive(c, run.cancel(identity, approvalId)), {
        once: true,
      });
    return callResponse(answer, format);
  });

  app.get('/artifacts', async (c) => {
    const store = storeOf(c.env);
    const cursor = c.req.query('cursor');
    const limit = c.req.query('limit');
    const options: { cursor?: string; limit?: number } = {};
    if (cursor !== undefined) options.cursor = cursor;
    if (limit !== undefined) options.limit = limitOf(limit);
    try {
      return c.json(await store.list(artifactScope(c.get('identity')), options));
    } catch (error) {
      // The limit was checked above, so the store refused the cursor: the caller's to fix.
      if (error instanceof ToolctxError && error.kind === 'invalid-argument') {
        throw new HttpError(400, error.kind, error.message, error.info.details);
      }
      throw error;
    }
  });

  app.on(['GET', 'HEAD'], '/artifacts/:ref', (c) => {
    const ref = idOf(c.req.param('ref'), 'ref');
    return artifactResponse(storeOf(c.env), artifactScope(c.get('identity')), ref, c.req.method === 'HEAD');
  });

  return app;
}

/** A call's answer as the response: SSE, a JSON stream after heartbeats, or JSON sent whole. */
function callResponse(
  answer: CallAnswer,
  format: CallFormat,
  headers: Record<string, string> = {},
): Response {
  if (typeof answer === 'string') return new Response(answer, { headers: { ...jsonHeaders, ...headers } });
  return new Response(answer, {
    headers: { ...(format === 'sse' ? sseHeaders : jsonStreamHeaders), ...headers },
  });
}

function unwrap<T>(reply: Reply<T>): T {
  if (reply.ok) return reply.value;
  const { status, error, retryAfter } = reply;
  throw new HttpError(status, error.kind, error.message, error.details, retryAfter);
}

/** Whether the request asks to be answered before the call settles (RFC 7240's `respond-async`). */
function respondAsync(prefer: string | undefined): boolean {
  return prefer?.split(/[,;]/).some((token) => token.trim().toLowerCase() === 'respond-async') === true;
}

function wantsSse(accept: string | undefined): boolean {
  return accept?.toLowerCase().includes('text/event-stream') === true;
}

/** Lets a promise finish after the response where the platform allows it (Workers' waitUntil). */
function keepAlive(c: Context, promise: Promise<unknown>): void {
  const settled = promise.catch(() => {});
  try {
    c.executionCtx.waitUntil(settled);
  } catch {
    // No execution context (app.request in a test or a Node host): the promise runs on its own.
  }
}
