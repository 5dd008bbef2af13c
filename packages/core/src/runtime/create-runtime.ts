import type { CallRequest, ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import { EventLog, type EventSink, type SinkErrorHandler } from '../events/event-log.js';
import type { Phase } from '../policy/phase.js';
import { type AnyTool, type ToolSchema, toolSchema } from '../tools/define-tool.js';
import { type DoorDeclaration, inProcessDoor } from './door.js';
import { type Run, RunImpl, type StartRunOptions } from './run.js';
import type { RuntimeCore } from './runtime-core.js';

/** Options of `createRuntime`. */
export interface RuntimeOptions {
  /** The tools this runtime serves, each made with `defineTool`. Names must be unique. */
  tools: readonly AnyTool[];
  /** Receive every event of every run. Synchronous and quick; a sink that throws is detached. */
  sinks?: readonly EventSink[];
  /** Told once about each sink that threw and was detached. Default: `console.warn`. */
  onSinkError?: SinkErrorHandler;
  /** The door this runtime serves through. Default: the in-process door. */
  door?: DoorDeclaration;
}

/** A set of tools and the ports they use; starts runs. */
export interface Runtime {
  /** The tools by name. */
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly door: DoorDeclaration;
  /** The tools a model may be offered in `phase` (in `plan`, only `read` tools), as JSON Schemas. */
  listTools(options?: { phase?: Phase }): ToolSchema[];
  /** Starts a run; its `run.started` event is the first of its record. */
  startRun(options?: StartRunOptions): Run;
  /**
   * Calls one tool outside any run, for doors that have no runs (MCP): `ctx.runId` is absent and
   * no run events are recorded. `onEvent` receives the call's events.
   */
  callOnce(request: CallOnceRequest): Promise<ToolResult>;
  /** The same tools and ports served through another door (its own teardown scopes, dispatch, run ids). */
  withDoor(door: DoorDeclaration): Runtime;
}

/** What `runtime.callOnce` takes: a call, and the facts a run would otherwise supply. */
export interface CallOnceRequest extends CallRequest, Omit<StartRunOptions, 'runId' | 'signal'> {
  /** Receives this call's events, in order. */
  onEvent?: EventSink;
}

/**
 * Creates a runtime. The tool set is checked here, so a mistake surfaces at start-up rather than
 * at the first call.
 *
 * @example
 * ```ts
 * import { createRuntime, defineTool } from '@toolctx/core';
 * import { z } from 'zod';
 *
 * const echo = defineTool({
 *   name: 'echo',
 *   description: 'Says it back.',
 *   input: z.object({ text: z.string() }),
 *   execute: ({ text }) => text,
 * });
 * const runtime = createRuntime({ tools: [echo] });
 * const run = runtime.startRun();
 * await run.call({ tool: 'echo', args: { text: 'hi' } }); // { ok: true, value: 'hi', content: 'hi' }
 * ```
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const tools = checkToolSet(options.tools);
  const door = options.door ?? inProcessDoor;
  const sinks = options.sinks ?? [];
  const onSinkError: SinkErrorHandler =
    options.onSinkError ??
    ((error, event) =>
      console.warn(`toolctx: an event sink threw ${errorName(error)} on ${event.type} and was detached.`));
  const names = [...tools.keys()];
  const core: RuntimeCore = {
    tools,
    door,
    unknownTool: (name): ErrorInfo => ({
      kind: 'unknown-tool',
      message: `There is no tool named ${JSON.stringify(name)}. Available: ${names.join(', ') || '(none)'}.`,
      retryable: false,
      details: { available: names },
    }),
  };
  return {
    tools,
    door,
    listTools: ({ phase = 'act' } = {}) =>
      [...tools.values()].filter((tool) => phase !== 'plan' || tool.effect === 'read').map(toolSchema),
    startRun(runOptions = {}) {
      const runId = runOptions.runId ?? `run_${crypto.randomUUID()}`;
      return new RunImpl(core, runId, new EventLog(runId, sinks, onSinkError), runOptions) as RunImpl & Run;
    },
    async callOnce({ onEvent, identity, sessionId, phase, state, ...request }) {
      const log = new EventLog(undefined, onEvent ? [...sinks, onEvent] : sinks, onSinkError);
      const frame = new RunImpl(core, undefined, log, { identity, sessionId, phase, state });
      const result = await frame.call(request);
      await frame.end();
      return result;
    },
    withDoor: (other) => createRuntime({ ...options, door: other }),
  };
}

function checkToolSet(list: readonly AnyTool[]): Map<string, AnyTool> {
  if (!Array.isArray(list))
    throw new TypeError('createRuntime needs { tools: [...] }, an array of defineTool(...) results.');
  const tools = new Map<string, AnyTool>();
  for (const tool of list) {
    if (!tool || typeof tool.execute !== 'function' || !tool.inputSchema) {
      throw new TypeError(
        `createRuntime: ${describe(tool)} is not a tool. Make each tool with defineTool({...}).`,
      );
    }
    if (tools.has(tool.name)) {
      throw new TypeError(`createRuntime: two tools are named "${tool.name}". Give each tool a unique name.`);
    }
    tools.set(tool.name, tool);
  }
  return tools;
}

function describe(value: unknown): string {
  const name = (value as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? `"${name}"` : `a ${value === null ? 'null' : typeof value}`;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
