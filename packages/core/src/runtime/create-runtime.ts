import type { ApprovalPort } from '../approval/approval.js';
import type { ArtifactStore } from '../artifacts/types.js';
import type { AskUser } from '../ask/ask.js';
import type { CallRequest, Identity, ToolResult } from '../context/types.js';
import {
  EventLog,
  type EventSink,
  type SinkErrorHandler,
  type SinkOrigin,
  sinkAt,
} from '../events/event-log.js';
import { allowedInPhase, type Phase } from '../policy/phase.js';
import { type AnyTool, type ToolSchema, toolSchema } from '../tools/define-tool.js';
import { type DoorDeclaration, inProcessDoor } from './door.js';
import { type Run, RunFrame, type StartRunOptions } from './run.js';
import { sharesTaintKey } from './run-facts.js';
import type { RuntimeOptions } from './runtime-options.js';
import { createServices, type SharedServices, servicesAt } from './services.js';
import { type RemembersTaint, recallTaint, rememberTaint, sessionTaint } from './session-taint.js';

export type { RuntimeOptions } from './runtime-options.js';

/** A set of tools and the ports they use; starts runs. */
export interface Runtime {
  /** The tools by name. */
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly door: DoorDeclaration;
  /** The artifact store the runtime was given, for doors that serve artifacts back to callers. */
  readonly artifacts?: ArtifactStore;
  /** The tools a model may be offered in `phase` (in `plan`, only `read` tools), as JSON Schemas. */
  listTools(options?: { phase?: Phase }): ToolSchema[];
  /** Starts a run; its `run.started` event is the first of its record. */
  startRun(options?: StartRunOptions): Run;
  /**
   * Calls one tool outside any run, for doors that have no runs (MCP): `ctx.runId` is absent and
   * no run events are recorded. `onEvent` receives the call's events.
   */
  callOnce(request: CallOnceRequest): Promise<ToolResult>;
  /**
   * This runtime served through another door. Only the door's declaration changes (its name,
   * teardown scopes, dispatch, run ids): the tools, ports, taint, approval tokens and session
   * cleanups are this runtime's own, shared by every door it is served through.
   */
  withDoor(door: DoorDeclaration): Runtime;
  /**
   * Ends one identity's session: fires the `session` cleanups its calls registered, through any
   * door, and no other identity's. Pass the identity the session's runs were started with (none
   * for anonymous runs): a cleanup is keyed by tenant, principal and session id
   * (`teardownKey`), so a stranger who picks the same `sessionId` neither fires yours nor has
   * yours fire theirs.
   *
   * @example
   * ```ts
   * import type { Runtime } from '@toolctx/core';
   * declare const runtime: Runtime;
   * await runtime.closeSession('s-1', { tenant: 'acme', principal: 'ana' });
   * ```
   */
  closeSession(sessionId: string, identity?: Identity): Promise<void>;
  /** Fires every `session` and `shutdown` cleanup, through any door; call when the host stops. */
  shutdown(): Promise<void>;
}

/** What `runtime.callOnce` takes: a call, and the facts a run would otherwise supply. */
export interface CallOnceRequest
  extends CallRequest,
    Omit<StartRunOptions, 'runId' | 'signal' | 'onEvent' | 'continuesAfterSeq'> {
  /** Receives this call's events, in order. */
  onEvent?: EventSink;
  /**
   * For a door whose calls belong to a session (MCP): what an anonymous caller's artifact scope
   * and taint are kept under, so the session's calls share them. The door makes it, unguessable,
   * and never takes it from the caller. Without it each anonymous call has a scope of its own.
   * Ignored for an identified caller, whose scope comes from the identity.
   */
  anonymousScope?: string;
  /**
   * Decides this call's approval when the runtime's approval port answers `'pending'`: a door that
   * can reach the person while the call waits (MCP elicitation) asks them here. Its decision is
   * bound to the call by the same one-use token as any other; its `'pending'` leaves the call
   * pending. A call cancelled while it waits ends as cancelled, whatever the answer.
   */
  decidePending?: ApprovalPort;
  /**
   * Puts the call's asks (`ctx.ask`) to its user, for a door that can reach them while the call
   * runs (MCP's `elicitation/create`). Its answer is checked against the ask before the tool sees
   * it. Without it the call's asks fail as `unsupported`: a call outside a run has no one to ask.
   */
  askUser?: AskUser;
}

/**
 * Creates a runtime. The tool set is checked here, so a mistake surfaces at start-up rather than
 * at the first call.
 *
 * @example
 * ```ts
 * import { createRuntime, defineTool } from '@toolctx/core';
 * import { createMemoryArtifactStore } from '@toolctx/core/memory';
 * import { z } from 'zod';
 *
 * const echo = defineTool({
 *   name: 'echo',
 *   description: 'Says it back.',
 *   inputSchema: z.object({ text: z.string() }),
 *   execute: ({ text }) => text,
 * });
 * const runtime = createRuntime({ tools: [echo], artifacts: createMemoryArtifactStore() });
 * const run = runtime.startRun({ identity: { tenant: 'acme', principal: 'ana' } });
 * await run.call({ tool: 'echo', args: { text: 'hi' } }); // { ok: true, value: 'hi', content: 'hi' }
 * ```
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const tools = checkToolSet(options);
  const sinks = options.sinks ?? [];
  const onSinkError: SinkErrorHandler =
    options.onSinkError ??
    ((error, event) =>
      console.warn(`toolctx: an event sink threw ${errorName(error)} on ${event.type} and was detached.`));
  const shared = createServices({ ...options, tools, sinks, onSinkError });
  return runtimeAt(shared, options.door ?? inProcessDoor);
}

/** The runtime over `shared` at `door`; `withDoor` makes another over the very same services. */
function runtimeAt(shared: SharedServices, door: DoorDeclaration): Runtime {
  const { tools, onSinkError, artifacts } = shared;
  const services = servicesAt(shared, door);
  const origin: SinkOrigin = { door: door.name, tools };
  const sinks = shared.sinks.map((sink) => sinkAt(sink, origin));
  return {
    tools,
    door,
    ...(artifacts ? { artifacts } : {}),
    listTools: ({ phase = 'act' } = {}) =>
      [...tools.values()].filter((tool) => allowedInPhase(tool.effect, phase)).map(toolSchema),
    startRun(runOptions = {}) {
      const runId = runOptions.runId ?? `run_${crypto.randomUUID()}`;
      const after = runOptions.continuesAfterSeq;
      if (after !== undefined && !(Number.isSafeInteger(after) && after >= 0)) {
        throw new TypeError(
          `startRun: continuesAfterSeq must be the seq of the last recorded event (a whole number from 0), not ${after}.`,
        );
      }
      const log = new EventLog(runId, sinks, onSinkError, after);
      const { onEvent } = runOptions;
      const options = onEvent?.forRuntime ? { ...runOptions, onEvent: sinkAt(onEvent, origin) } : runOptions;
      return new RunFrame(services, runId, log, options) as RunFrame & Run;
    },
    async callOnce({ onEvent, ...request }: CallOnceRequest & RemembersTaint) {
      const log = new EventLog(undefined, onEvent ? [...sinks, sinkAt(onEvent, origin)] : sinks, onSinkError);
      const frame = new RunFrame(services, undefined, log, request);
      // Only a key the session's other calls can have is worth remembering: any other names one call.
      const { identity, anonymousScope } = request;
      const memory = sharesTaintKey(identity, undefined, anonymousScope) ? request[sessionTaint] : undefined;
      if (memory) recallTaint(memory, services.taint, frame.taintKey);
      // The frame listens to the signal and cancels the call with it; the call need not listen too.
      const { tool, args, toolCallId } = request;
      try {
        const result = await frame.call({ tool, args, toolCallId });
        if (memory) rememberTaint(memory, services.taint, frame.taintKey);
        return result;
      } finally {
        // Its end lets go of its taint key, so the frame leaves nothing behind however the call went.
        await frame.end();
      }
    },
    withDoor: (other) => runtimeAt(shared, other),
    closeSession: (sessionId, identity) => shared.sessions.closeSession(sessionId, identity),
    shutdown: () => shared.sessions.shutdown(),
  };
}

function checkToolSet(options: RuntimeOptions): Map<string, AnyTool> {
  const list = options?.tools;
  if (!Array.isArray(list)) {
    throw new TypeError('createRuntime needs { tools: [...] }, an array of defineTool(...) results.');
  }
  const tools = new Map<string, AnyTool>();
  for (const tool of list) {
    if (!tool || typeof tool.execute !== 'function' || !tool.inputJsonSchema) {
      throw new TypeError(
        `createRuntime: ${describe(tool)} is not a tool. Make each tool with defineTool({...}).`,
      );
    }
    if (tools.has(tool.name)) {
      throw new TypeError(`createRuntime: two tools are named "${tool.name}". Give each tool a unique name.`);
    }
    const missing = missingPort(tool, options);
    if (missing) throw new TypeError(`createRuntime: tool "${tool.name}" ${missing}`);
    tools.set(tool.name, tool);
  }
  return tools;
}

/** What a tool declares that the runtime was not given, with the fix. */
function missingPort(tool: AnyTool, options: RuntimeOptions): string | undefined {
  if (tool.wants && !options.artifacts) {
    return 'declares wants, but the runtime has no artifact store. Pass createRuntime({ artifacts }).';
  }
  if (tool.needs && !options.credentials) {
    return 'declares needs, but the runtime has no credential provider. Pass createRuntime({ credentials }).';
  }
  if (tool.needsApproval && !options.approval) {
    return 'declares needsApproval, but the runtime has no approval port. Pass createRuntime({ approval }).';
  }
  if (tool.effect === 'send' && options.security?.trifecta === 'approve' && !options.approval) {
    return "sends data and security.trifecta is 'approve', but the runtime has no approval port. Pass createRuntime({ approval }).";
  }
  if (tool.cache && !options.cache) {
    return 'declares cache, but the runtime has no cache. Pass createRuntime({ cache }), such as createMemoryCache().';
  }
  return undefined;
}

function describe(value: unknown): string {
  const name = (value as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? `"${name}"` : `a ${value === null ? 'null' : typeof value}`;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
