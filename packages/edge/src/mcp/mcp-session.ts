import { DurableObject } from 'cloudflare:workers';
import type { McpServer, RequestId } from '@modelcontextprotocol/server';
import type { Identity, Runtime } from '@toolctx/core';
import { type ServeMcpOptions, serveMcp } from '@toolctx/core/mcp';
import { BodyTimeoutError } from '../door/read-body.js';
import { sameIdentity } from '../door/same-identity.js';
import { sharedRuntime } from '../door/shared-runtime.js';
import type { CallSlot } from '../run-host/index.js';
import { AnsweringTransport } from './answering-transport.js';
import { createDurableEventStore, type DurableEventStore, type McpEventStoreLimits } from './event-store.js';
import { callsOf, readCallLimit, releaseSessionSlot, slotHeader, takeCallSlots } from './session-slots.js';
import {
  callIdsOf,
  isResponse,
  replayResponse,
  reserve,
  retryMs,
  unknownEvent,
  watchStream,
} from './session-streams.js';
import {
  bodyTooLarge,
  bodyTooSlow,
  maxMessageBytes,
  readBoundedText,
  readIdentity,
  sessionNotFound,
} from './wire.js';

/**
 * The Durable Object that holds one MCP session: an `McpServer` (from `serveMcp`) and its
 * streamable HTTP transport, created by the session's `initialize` request. Every later request of
 * the session reaches this same object, so a `notifications/cancelled` that arrives in its own
 * POST finds the running call and fires the tool's `ctx.signal`, as a DELETE of the session does.
 * A client that drops a call's response stream does not cancel the call (MCP 2025-11-25: a
 * disconnect SHOULD NOT be taken as a cancel): it goes on, bounded by the tool's timeout, and its
 * messages and result wait in the event store for the client's `GET` with `Last-Event-ID`.
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
 * Streams survive and notice. Every message a stream sends (and each POST stream's priming event,
 * with `retry: 1000`) is written to the object's storage first, so a client that reconnects with
 * `Last-Event-ID` gets what it missed, in order and once (bounds: {@link eventStoreLimits}); an id
 * the store does not keep is a 400. Every SSE stream writes a comment line each 500 ms, and the
 * first write that fails tells the object the client hung up, about 2 s after it did: a dropped
 * GET stream is freed for the next GET, and a dropped POST stream is let go while its calls run
 * on; a resume of it gets what they sent since, then their answers as they come (a call's
 * `callLimit` slot comes back at its answer, as for any call).
 *
 * Make the class with {@link createMcpSession} from the same `runtimeFor(env)` the HTTP door and
 * the run host take, export it from the Worker and bind it: every session object of an isolate,
 * and the door and the run objects there, then serve one runtime (its taint, approval tokens and
 * session cleanups). Subclass what it returns to override the hooks below.
 * The session lives in memory: if the object is evicted, a GET resuming with `Last-Event-ID` still
 * gets the events stored after that id (then its stream ends), and every other request gets 404,
 * so the MCP client starts a new session, as the protocol asks. A DELETE clears the object's
 * storage, events included; an evicted session's record and events are cleared by the object's
 * alarm within an hour (a subclass that overrides `alarm` calls `super.alarm()`).
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { createMcpSession } from '@toolctx/edge/durable-objects';
 * declare const countWords: AnyTool;
 *
 * export class ToolsMcpSession extends createMcpSession(() => createRuntime({ tools: [countWords] })) {}
 * ```
 */
export class McpSession<Env = unknown> extends DurableObject<Env> {
  private session: Session | undefined;
  /** Who initialized this object's session, once known: from memory, else from storage. */
  private owner: Owner | undefined;

  /** `runtime` is the one whose tools every session of this object serves. */
  constructor(
    ctx: DurableObjectState,
    env: Env,
    private readonly runtime: Runtime,
  ) {
    super(ctx, env);
  }

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
   * import type { McpServer } from '@modelcontextprotocol/server';
   * import { type AnyTool, createRuntime } from '@toolctx/core';
   * import { createMcpSession } from '@toolctx/edge/durable-objects';
   * declare const countWords: AnyTool;
   *
   * export class ToolsMcpSession extends createMcpSession(() => createRuntime({ tools: [countWords] })) {
   *   protected override configureServer(server: McpServer) {
   *     server.registerPrompt('summarize', { description: 'Summarize the text so far.' }, () => ({
   *       messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the text so far.' } }],
   *     }));
   *   }
   * }
   * ```
   */
  protected configureServer(_server: McpServer): void {}

  /**
   * The bounds of the session's event store, which keeps what its streams sent so a client that
   * reconnects with `Last-Event-ID` gets what it missed (default: 1000 events per stream, 4 MiB,
   * 10 minutes). Past a bound the oldest events go first; a resume from one that is gone is a 400.
   *
   * @example
   * ```ts
   * import { type AnyTool, createRuntime } from '@toolctx/core';
   * import { createMcpSession } from '@toolctx/edge/durable-objects';
   * declare const countWords: AnyTool;
   *
   * export class ToolsMcpSession extends createMcpSession(() => createRuntime({ tools: [countWords] })) {
   *   // Clients here reconnect within a minute; keep less, for less time.
   *   protected override eventStoreLimits() {
   *     return { maxEventsPerStream: 200, maxBytes: 1024 * 1024, maxAgeMs: 60_000 };
   *   }
   * }
   * ```
   */
  protected eventStoreLimits(): McpEventStoreLimits {
    return {};
  }

  /** Handles one MCP streamable HTTP request of this session (POST, GET or DELETE). */
  override async fetch(request: Request): Promise<Response> {
    const identity = readIdentity(request);
    if (!this.owner) {
      const stored = await this.ctx.storage.get<Owner>(ownerKey);
      this.owner ??= stored;
    }
    if (this.owner && !sameIdentity(this.owner.identity ?? undefined, identity)) return sessionNotFound();
    const lastEventId = request.method === 'GET' ? request.headers.get('last-event-id') : null;
    if (!this.session) {
      // After an eviction only the store is left: a resume gets what it keeps, nothing else is served.
      if (lastEventId && this.owner) return this.replayStored(lastEventId, true);
      // Its owner closing a lost session: its record and slot go now, not at the next alarm.
      if (request.method === 'DELETE' && this.owner) await this.forget();
      if (request.headers.has('mcp-session-id') || this.owner) return sessionNotFound();
      this.session = await this.start();
      const slots = request.headers.get(slotHeader);
      this.owner = { identity: identity ?? null, ...(slots ? { slots } : {}) };
    }
    const session = this.session;
    if (lastEventId) {
      const streamId = await session.events.streamOf(lastEventId);
      if (streamId === undefined) return unknownEvent();
      // A POST's stream whose response is stored already is answered, and ended, from the store.
      if (streamId !== standaloneStreamId) {
        const replay = await this.replayStored(lastEventId, false);
        if (replay) return replay;
      }
    }
    let text: string | undefined;
    try {
      text = request.method === 'POST' ? await readBoundedText(request, maxMessageBytes) : undefined;
    } catch (error) {
      if (error instanceof BodyTimeoutError) return bodyTooSlow(error.timeoutMs);
      throw error;
    }
    if (request.method === 'POST' && text === undefined) return bodyTooLarge(maxMessageBytes);
    const requestIds = text === undefined ? [] : callIdsOf(text);
    const reservation = reserve(session.inFlight, session.awaiting, requestIds);
    if (reservation instanceof Response) return reservation;
    const { release } = reservation;
    // With `callLimit`, each tools/call holds a slot of its identity's until it is answered.
    const { calls, cancels } = text === undefined ? { calls: [], cancels: [] } : callsOf(text);
    const limit = readCallLimit(request);
    if (limit && identity && calls.length > 0) {
      const slots = await takeCallSlots(limit, this.env, identity, calls);
      if (slots instanceof Response) {
        release();
        return slots;
      }
      for (const [id, slot] of slots) session.callSlots.set(id, slot);
    }
    const freeSlots = (ids: RequestId[]) => Promise.all(ids.map((id) => freeCallSlot(session, id)));
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
      await freeSlots(calls);
      throw error;
    }
    // A cancelled call gets no answer from the SDK: its slot comes back with the cancel.
    await freeSlots(cancels);
    // The transport says 404 only for a session it no longer has: the same answer as ours.
    if (response.status === 404) {
      release();
      await freeSlots(calls);
      return sessionNotFound();
    }
    if (!session.recorded && transport.sessionId !== undefined) {
      session.recorded = true;
      await this.record();
    }
    if (request.method === 'DELETE' && response.ok) await this.forget();
    if (!response.body || !response.ok) {
      release();
      await freeSlots(calls);
      return response;
    }
    // A stream the client dropped is let go, its calls go on: their answers wait in the event store.
    const sse = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
    const body = watchStream(response.body, sse);
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /**
   * Answers a resume from the store alone, when that is the whole answer: after an eviction
   * (`evicted`), whatever is kept after `lastEventId`, else 404 as for any request of a lost
   * session; in a live session, a POST's stream whose response is already stored. `undefined`
   * means the transport answers.
   */
  private async replayStored(lastEventId: string, evicted: true): Promise<Response>;
  private async replayStored(lastEventId: string, evicted: false): Promise<Response | undefined>;
  private async replayStored(lastEventId: string, evicted: boolean): Promise<Response | undefined> {
    const events = this.session?.events ?? createDurableEventStore(this.ctx.storage, this.eventStoreLimits());
    const found = await events.eventsAfter(lastEventId);
    if (evicted) {
      if (!found || found.events.length === 0) return sessionNotFound();
      return replayResponse(this.ctx.id.toString(), found.events);
    }
    if (!found?.events.some(({ message }) => isResponse(message))) return undefined;
    return replayResponse(this.ctx.id.toString(), found.events);
  }

  /**
   * Clears the record of a session this object no longer holds (evicted, or closed); re-arms while
   * the session lives.
   */
  override async alarm(): Promise<void> {
    if (this.session) {
      await this.session.events.prune();
      await this.ctx.storage.setAlarm(Date.now() + recordCheckMs);
    } else await this.forget();
  }

  private async start(): Promise<Session> {
    const options = this.serveOptions();
    const server = serveMcp(this.runtime, {
      ...options,
      identify: (caller) =>
        (caller.authInfo?.extra?.identity as Identity | undefined) ?? options.identify?.(caller),
    });
    this.configureServer(server);
    const sessionId = this.ctx.id.toString();
    const events = createDurableEventStore(this.ctx.storage, this.eventStoreLimits());
    const transport = new AnsweringTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: events,
      retryInterval: retryMs,
      // The session's own heartbeats (session-streams.ts) keep streams alive and find hang-ups.
      keepAliveMs: 0,
    });
    const session: Session = {
      server,
      transport,
      events,
      inFlight: new Set(),
      awaiting: new Map(),
      callSlots: new Map(),
      recorded: false,
    };
    transport.onclose = () => {
      this.session = undefined;
      for (const id of [...session.callSlots.keys()]) void freeCallSlot(session, id);
    };
    transport.onAnswered = (id) => session.awaiting.get(id)?.(id);
    // The slot comes back before the answer goes out, so a client that has it can call again.
    transport.beforeAnswer = (id) => freeCallSlot(session, id);
    await server.connect(transport);
    return session;
  }

  /** Writes down the owner once the session is initialized, and arms the alarm that clears it. */
  private async record(): Promise<void> {
    if (!this.owner) return;
    await this.ctx.storage.put(ownerKey, this.owner);
    await this.ctx.storage.setAlarm(Date.now() + recordCheckMs);
  }

  /**
   * Ends the session for good: its storage goes, and its slot (with `sessionLimit`) and those of its
   * calls still running (with `callLimit`) are given back.
   */
  private async forget(): Promise<void> {
    const owner = this.owner ?? (await this.ctx.storage.get<Owner>(ownerKey));
    const session = this.session;
    if (session) await Promise.all([...session.callSlots.keys()].map((id) => freeCallSlot(session, id)));
    this.session = undefined;
    this.owner = undefined;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    if (owner?.slots && owner.identity) {
      await releaseSessionSlot(this.env, owner.slots, owner.identity, this.ctx.id.toString());
    }
  }
}

/** The class {@link createMcpSession} makes: a Durable Object class to export and bind. */
export type McpSessionClass<E> = new (ctx: DurableObjectState, env: E) => McpSession<E>;

/**
 * Makes the MCP session's Durable Object class around your tools. `runtimeFor` takes the Worker's
 * bindings and is called once per `env` object, as `createToolServer`'s and `createRunHost`'s
 * are: give all three the same function and the door, the run objects and the MCP sessions of
 * one isolate share the one runtime it made, so taint a session's call raised holds for a live
 * run of the same conversation at the HTTP door. Export the class (or a subclass that overrides
 * {@link McpSession}'s hooks) under the name `wrangler.jsonc` binds.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { createToolServer, type ExampleWorkerEnv } from '@toolctx/edge';
 * import { createMcpSession, createRunHost } from '@toolctx/edge/durable-objects';
 * declare const tools: AnyTool[];
 *
 * const runtimeFor = (env: ExampleWorkerEnv) => createRuntime({ tools });
 * export class RunHost extends createRunHost<ExampleWorkerEnv>(runtimeFor) {}
 * export class ToolsMcpSession extends createMcpSession<ExampleWorkerEnv>(runtimeFor) {}
 * export default createToolServer<ExampleWorkerEnv>({ runtimeFor, authenticate: () => ({}) });
 * ```
 */
export function createMcpSession<E = unknown>(runtimeFor: (env: E) => Runtime): McpSessionClass<E> {
  return class ToolsMcpSession extends McpSession<E> {
    constructor(ctx: DurableObjectState, env: E) {
      super(ctx, env, sharedRuntime(runtimeFor, env));
    }
  };
}

interface Session {
  server: McpServer;
  transport: AnsweringTransport;
  /** What the session's streams sent, for clients that resume with `Last-Event-ID`. */
  events: DurableEventStore;
  /** The JSON-RPC request ids still waiting for their answer. */
  inFlight: Set<RequestId>;
  /** For each request id in flight, who hears that its answer went out. */
  awaiting: Map<RequestId, (id: RequestId) => void>;
  /** The identity's call slots (`callLimit`) the session's tools/call requests hold, by request id. */
  callSlots: Map<RequestId, CallSlot>;
  /** Whether the owner is in storage yet: it is written once the session is initialized. */
  recorded: boolean;
}

/** Gives back the call slot request `id` holds, if it holds one. */
function freeCallSlot(session: Session, id: RequestId): Promise<void> {
  const slot = session.callSlots.get(id);
  if (!slot) return Promise.resolve();
  session.callSlots.delete(id);
  return slot.release();
}

/** The identity that initialized the session; `null` for anonymous. */
interface Owner {
  identity: Identity | null;
  /** The env binding that counts the identity's sessions, when the route caps them. */
  slots?: string;
}

const ownerKey = 'owner';
/** The SDK transport's id for the session's GET stream. */
const standaloneStreamId = '_GET_stream';
const recordCheckMs = 60 * 60_000;
