import type { Identity, Runtime } from '@toolctx/core';
import { ok, type Reply } from '../door/door-error.js';
import { sameIdentity } from '../door/same-identity.js';
import { httpDoor } from './doors.js';
import { defaultLimits, limitExceeded, type RunLimits } from './limits.js';
import {
  type ListedRun,
  pageOf,
  pageRequest,
  positionOf,
  type RunListOptions,
  type RunPage,
} from './run-list.js';
import { RunLog } from './run-log.js';
import { type DoorRun, RunState } from './run-state.js';
import { createMemoryRunStorage } from './run-storage.js';
import type { RunInfo, RunInit } from './types.js';

/**
 * Where the HTTP door's runs live: three verbs, `start`, `get` and `list`. Every verb of the run
 * `get` answers takes the caller's identity: a run answers only the identity that started it
 * (anyone else gets the same 404 as for a run that does not exist), and `list` shows a caller its
 * own runs only. Two implementations:
 * {@link createMemoryRunDirectory} and {@link durableObjectRuns}.
 *
 * @example
 * ```ts
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * declare const env: ExampleWorkerEnv;
 * import { durableObjectRuns, type RunDirectory } from '@toolctx/edge';
 * const runs: RunDirectory = durableObjectRuns(env.RUNS);
 * const reply = await runs.get('run_1').cancel({ tenant: 'acme', principal: 'ana' }, 'call_1');
 * ```
 */
export interface RunDirectory {
  /** Starts a run for `init.identity` under `init.runId`. */
  start(init: RunInit): Promise<Reply<RunInfo>>;
  /**
   * The run named `runId`, to use with the caller's identity. Always answers: a run that does not
   * exist (or is another identity's) answers each verb with the same 404.
   */
  get(runId: string): DoorRun;
  /**
   * The caller's runs, newest first, a page at a time (`GET /runs`): live ones and ended ones
   * within their retention window, each as {@link RunSummary}. A malformed cursor or a `limit`
   * outside 1–100 is a 400.
   */
  list(caller: Identity, options?: RunListOptions): Promise<Reply<RunPage>>;
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
  // Each identity's runs to list (conversation included, as a run's owner is): until forgotten.
  const listed = new Map<string, Set<string>>();
  const keyOf = (identity: Identity) => JSON.stringify([identity.tenant ?? '', identity.principal ?? '']);
  const ownerKeyOf = (identity: Identity) =>
    JSON.stringify([identity.tenant ?? null, identity.principal ?? null, identity.conversationId ?? null]);
  const logOf = () => new RunLog(createMemoryRunStorage(), maxEvents);
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
        const forget = setTimeout(() => {
          runs.delete(init.runId);
          const owned = listed.get(ownerKeyOf(init.identity));
          owned?.delete(init.runId);
          if (owned?.size === 0) listed.delete(ownerKeyOf(init.identity));
        }, retentionMs);
        // In Node, a timer must not keep the process alive for the retention window.
        (forget as { unref?: () => void }).unref?.();
      };
      const state = runs.get(init.runId) ?? new RunState(runtime, logOf(), { ...options, onFinished });
      const reply = state.start(init);
      if (reply.ok) {
        runs.set(init.runId, state);
        mine.add(init.runId);
        live.set(key, mine);
        const owned = listed.get(ownerKeyOf(init.identity)) ?? new Set<string>();
        listed.set(ownerKeyOf(init.identity), owned.add(init.runId));
      }
      return reply;
    },
    async list(caller, options) {
      const request = pageRequest(options);
      if (!request.ok) return request;
      const { after, limit } = request.value;
      const entries: [string, ListedRun][] = [];
      for (const runId of listed.get(ownerKeyOf(caller)) ?? []) {
        const record = runs.get(runId)?.record;
        if (!record || !sameIdentity(record.owner, caller)) continue;
        const position = positionOf(record);
        if (after === undefined || position > after) entries.push([position, record]);
      }
      entries.sort(([a], [b]) => (a < b ? -1 : 1));
      return ok(pageOf(entries, limit));
    },
    // An unknown run is one with empty storage, as a Durable Object of a new name is: every verb
    // answers it with the 404 of a run this identity does not have.
    get: (runId) => runs.get(runId) ?? new RunState(runtime, logOf(), options),
  };
}
