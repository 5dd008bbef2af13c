import type { ApprovalDecision, Identity, Runtime, ToolResult } from '@toolctx/core';
import { type Reply, refuse } from '../door-error.js';
import { httpDoor } from './doors.js';
import { defaultLimits, limitExceeded, type RunLimits } from './limits.js';
import { RunLog } from './run-log.js';
import { RunState } from './run-state.js';
import { createMemoryRunStorage } from './run-storage.js';
import type { CallAnswer, CallFormat, CancelInfo, DoorCall, RunInfo, RunInit } from './types.js';

/**
 * Where the HTTP door's runs live. Every method takes the caller's identity: a run answers only
 * the identity that started it (anyone else gets the same 404 as for a run that does not exist).
 * Two implementations: {@link createMemoryRunDirectory} and {@link durableObjectRuns}.
 *
 * @example
 * ```ts
 * import type { Env } from '@toolctx/edge';
 * declare const env: Env;
 * import { durableObjectRuns, type RunDirectory } from '@toolctx/edge';
 * const runs: RunDirectory = durableObjectRuns(env.RUNS);
 * const reply = await runs.cancel('run_1', { tenant: 'acme', principal: 'ana' }, 'call_1');
 * ```
 */
export interface RunDirectory {
  /** Starts a run for `init.identity`; its id is `init.runId` or a fresh one. */
  start(init: RunInit): Promise<Reply<RunInfo>>;
  /** Calls a tool in the caller's run and answers its `ToolResult` (a tool's failure is data). */
  call(runId: string, caller: Identity, call: DoorCall): Promise<Reply<ToolResult>>;
  /**
   * Calls a tool and answers a stream sent at once: as `sse` (the default) the call's events, then an
   * `event: result` message; as `json`, whitespace heartbeats, then the `ToolResult` as JSON, or
   * that JSON text alone when the call settled at once. A reader that hangs up cancels the call.
   */
  streamCall(
    runId: string,
    caller: Identity,
    call: DoorCall,
    format?: CallFormat,
  ): Promise<Reply<CallAnswer>>;
  /** The run's events after `after` as SSE bytes, then live ones until the run finishes. */
  events(runId: string, caller: Identity, after: number): Promise<Reply<ReadableStream<Uint8Array>>>;
  /**
   * Decides an approval a call of the run left pending and answers as {@link RunDirectory.streamCall}
   * does, once the decision is taken: as `json` (the default) whitespace heartbeats, then the
   * resumed call's `ToolResult`; as `sse` its events, then an `event: result` message. A decision
   * with nothing to decide is a 404 (a malformed one a 400) before any stream exists; a reader
   * that hangs up cancels the resumed call.
   */
  streamResume(
    runId: string,
    caller: Identity,
    approvalId: string,
    decision: ApprovalDecision,
    format?: CallFormat,
  ): Promise<Reply<CallAnswer>>;
  /**
   * Cancels one call of the caller's run: a running one is aborted, one that waits for approval is
   * settled as aborted and can no longer be approved. `callId` may also be the id of the approval
   * that resumed a running call. `not-found` when no such call is running or waiting.
   */
  cancel(runId: string, caller: Identity, callId: string): Promise<Reply<CancelInfo>>;
  /** Ends the caller's run, cancelling its calls in flight; ending it again is a no-op. */
  end(runId: string, caller: Identity): Promise<Reply<RunInfo>>;
}

/**
 * Options of {@link createMemoryRunDirectory}.
 *
 * @example
 * ```ts
 * import type { Runtime } from '@toolctx/core';
 * import { createMemoryRunDirectory, type MemoryRunDirectoryOptions } from '@toolctx/edge';
 * declare const runtime: Runtime;
 * const options: MemoryRunDirectoryOptions = { runtime, maxEvents: 200 };
 * const runs = createMemoryRunDirectory(options);
 * ```
 */
export interface MemoryRunDirectoryOptions extends RunLimits {
  runtime: Runtime;
  /** Events kept per run for resuming; older ones are trimmed. Default 1000. */
  maxEvents?: number;
  /**
   * How often an open stream (an event stream, an SSE or JSON call) writes its heartbeat, in ms;
   * a reader that hung up is found when a write to it fails. Default 500 ms.
   */
  heartbeatMs?: number;
  /** Live runs one identity (tenant and principal) may hold; one more is a 429. Default 100. */
  maxRunsPerIdentity?: number;
  /**
   * How long an ended run is kept, in ms from its end; then it is forgotten and answers 404 like
   * one that never existed. Default a day. There is no idle end here: end runs with `DELETE`.
   */
  retentionMs?: number;
}

/**
 * Runs held in this isolate's memory: for tests, Node hosts and single-process servers. An ended
 * run is forgotten `retentionMs` after its end; a run nobody ends stays until the process does,
 * within `maxRunsPerIdentity`. On Cloudflare use {@link durableObjectRuns}, since an isolate keeps
 * nothing between requests.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { createMemoryRunDirectory, createToolServer } from '@toolctx/edge';
 * declare const tools: AnyTool[];
 * const runtime = createRuntime({ tools });
 * const app = createToolServer({
 *   runtimeFor: () => runtime,
 *   runs: createMemoryRunDirectory({ runtime, maxEvents: 500 }),
 *   authenticate: () => ({ tenant: 'local' }),
 * });
 * ```
 */
export function createMemoryRunDirectory(options: MemoryRunDirectoryOptions): RunDirectory {
  const runtime = options.runtime.withDoor(httpDoor);
  const maxEvents = options.maxEvents ?? 1000;
  const maxRuns = options.maxRunsPerIdentity ?? defaultLimits.maxRunsPerIdentity;
  const retentionMs = options.retentionMs ?? 24 * 60 * 60_000;
  const runs = new Map<string, RunState>();
  // Each identity's live runs, by tenant and principal; a run leaves its set when it finishes.
  const live = new Map<string, Set<string>>();
  const keyOf = (identity: Identity) => JSON.stringify([identity.tenant ?? '', identity.principal ?? '']);
  const missing = refuse(404, 'not-found', 'There is no such run for this identity.');
  const find = (runId: string) => runs.get(runId);
  return {
    async start(init) {
      const key = keyOf(init.identity);
      const mine = live.get(key) ?? new Set<string>();
      if (!runs.has(init.runId) && mine.size >= maxRuns)
        return limitExceeded(
          'live runs for this identity',
          maxRuns,
          'maxRunsPerIdentity',
          'End a run (DELETE /runs/:id)',
          30,
        );
      const onFinished = () => {
        mine.delete(init.runId);
        if (mine.size === 0) live.delete(key);
        const forget = setTimeout(() => runs.delete(init.runId), retentionMs);
        // In Node, a timer must not keep the process alive for the retention window.
        (forget as { unref?: () => void }).unref?.();
      };
      const state =
        runs.get(init.runId) ??
        new RunState(runtime, new RunLog(createMemoryRunStorage(), maxEvents), { ...options, onFinished });
      const reply = state.start(init);
      if (reply.ok) {
        runs.set(init.runId, state);
        mine.add(init.runId);
        live.set(key, mine);
      }
      return reply;
    },
    call: async (runId, caller, call) => find(runId)?.call(caller, call) ?? missing,
    streamCall: async (runId, caller, call, format) =>
      find(runId)?.streamCall(caller, call, format) ?? missing,
    events: async (runId, caller, after) => find(runId)?.events(caller, after) ?? missing,
    streamResume: async (runId, caller, approvalId, decision, format) =>
      (await find(runId)?.streamResume(caller, approvalId, decision, format)) ?? missing,
    cancel: async (runId, caller, callId) => find(runId)?.cancel(caller, callId) ?? missing,
    end: async (runId, caller) => find(runId)?.end(caller) ?? missing,
  };
}
