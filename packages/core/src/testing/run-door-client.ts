import type { Answered, AskAnswer, OpenAsk } from '../ask/ask.js';
import type { CallRequest, ProgressPayload, ToolResult } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import type { CallHandle } from '../runtime/call-book.js';
import type { TeardownScope } from '../teardown/teardown-registry.js';
import type { DoorCallOutcome, DoorClient } from './door-suite-kit.js';

/** A run as a door hands it to its caller: core's `Run`, or a proxy of one (a Worker's run). */
export interface RunLike {
  readonly runId: string;
  /** Calls one tool of the run. */
  call(request: CallRequest): Promise<ToolResult>;
  readonly events: {
    /** Calls `listener` for each event from now on; returns the function that stops it. */
    subscribe(listener: (event: ToolEvent) => void): () => void;
  };
  /** Ends the run. */
  end(): Promise<void>;
  /** A call's handle, where the run keeps them (core's `Run`; a Worker's run answers a promise). */
  callStatus?(toolCallId: string): CallHandle | undefined | Promise<CallHandle | undefined>;
  /** The open asks of the run's calls, where it has them. */
  asks?(): OpenAsk[] | Promise<OpenAsk[]>;
  /** Answers an ask, where the run has them. */
  answer?(askId: string, answer: AskAnswer): Promise<Answered>;
}

/** What a door adds to a run-shaped client: ending wider scopes, and reading artifacts back. */
export interface RunDoorClientHooks {
  /** Ends `session` or `shutdown` after the run has ended. Default: refuses, naming the scope. */
  endScope?: (scope: 'session' | 'shutdown') => Promise<void>;
  /** Reads an artifact's data in the caller's scope. Default: refuses. */
  readArtifact?: (ref: string) => Promise<unknown>;
  /** Releases the door's connection after the run has ended. */
  close?: () => Promise<void>;
}

/**
 * A `DoorClient` over a run-shaped object, for `describeDoor`: each call gets its own
 * `toolCallId`, and its events (its child calls' too) and progress are picked from the run's
 * event stream as they arrive, also after the result.
 *
 * @example
 * ```ts
 * import { createRuntime, inProcessDoor } from '@toolctx/core';
 * import { describeDoor, runDoorClient } from '@toolctx/core/testing';
 * describeDoor('in-process', {
 *   supplies: { ...inProcessDoor, artifacts: false, credentials: false, events: true },
 *   connect: async (tools) => runDoorClient(createRuntime({ tools }).startRun()),
 * });
 * ```
 */
export function runDoorClient(run: RunLike, hooks: RunDoorClientHooks = {}): DoorClient {
  const outcomes = new Map<string, { progress: ProgressPayload[]; events: ToolEvent[] }>();
  const owner = new Map<string, string>();
  const stop = run.events.subscribe((event) => {
    if (!event.callId) return;
    const root = owner.get(event.callId) ?? (event.parentId ? owner.get(event.parentId) : undefined);
    if (root === undefined) return;
    owner.set(event.callId, root);
    const seen = outcomes.get(root)!;
    seen.events.push(event);
    if (event.type === 'tool.progress' && event.callId === root) {
      seen.progress.push((event.data as { payload: ProgressPayload }).payload);
    }
  });
  let ended = false;
  const endRun = async () => {
    if (ended) return;
    ended = true;
    await run.end();
  };
  return {
    runId: run.runId,
    async call(tool, args, options = {}): Promise<DoorCallOutcome> {
      const toolCallId = options.toolCallId ?? `call_${crypto.randomUUID()}`;
      const seen = { progress: [] as ProgressPayload[], events: [] as ToolEvent[] };
      outcomes.set(toolCallId, seen);
      owner.set(toolCallId, toolCallId);
      const result = await run.call({
        tool,
        args,
        toolCallId,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { result, ...seen };
    },
    async end(scope: Exclude<TeardownScope, 'call'>) {
      await endRun();
      if (scope === 'run') return;
      if (!hooks.endScope) throw new Error(`This door client cannot end a ${scope}: pass hooks.endScope.`);
      await hooks.endScope(scope);
    },
    ...(run.callStatus
      ? {
          callStatus: async (toolCallId: string) => run.callStatus?.(toolCallId),
          // The same run, reached again: in process and in a Worker, the page holds it.
          reconnect: async () => ({ callStatus: async (toolCallId: string) => run.callStatus?.(toolCallId) }),
        }
      : {}),
    ...(run.asks && run.answer
      ? {
          asks: async () => run.asks!(),
          answer: (askId: string, answer: unknown) => run.answer!(askId, answer as AskAnswer),
        }
      : {}),
    readArtifact(ref) {
      if (!hooks.readArtifact)
        throw new Error('This door client cannot read artifacts: pass hooks.readArtifact.');
      return hooks.readArtifact(ref);
    },
    async close() {
      await endRun();
      stop();
      await hooks.close?.();
    },
  };
}
