import { ok, type Reply, refuse } from '../door/door-error.js';
import { identityStateOf } from './identity-slots.js';
import type { IdentityStateObject } from './identity-state.js';
import { defaultLimits } from './limits.js';
import type { RunDirectory } from './run-directory.js';
import type { RunHostObject } from './run-host.js';
import { type ListedRun, pageRequest, type RunPage } from './run-list.js';
import type { DoorRun } from './run-state.js';

/**
 * Options of {@link durableObjectRuns}.
 *
 * @example
 * ```ts
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * declare const env: ExampleWorkerEnv;
 * import { durableObjectRuns, type DurableObjectRunsOptions } from '@toolctx/edge';
 * const options: DurableObjectRunsOptions = { identityState: env.IDENTITY_STATE, maxRunsPerIdentity: 20 };
 * const runs = durableObjectRuns(env.RUNS, options);
 * ```
 */
export interface DurableObjectRunsOptions {
  /**
   * Where each identity's live runs are counted and listed ({@link IdentityStateObject}); without
   * it runs per identity are not limited and `GET /runs` answers `501 unsupported`. Give the run
   * host the same namespace (`createRunHost`'s `identityState`) so a run's end frees its slot and
   * its entry leaves the list with the run.
   */
  identityState?: DurableObjectNamespace<IdentityStateObject>;
  /** Live runs one identity (tenant and principal) may hold; one more is a 429. Default 100. */
  maxRunsPerIdentity?: number;
}

/**
 * Runs held by Durable Objects, one object per run (`idFromName(runId)`), so every request for a
 * run reaches the same live state wherever it lands.
 *
 * @example
 * ```ts
 * import type { Identity, Runtime } from '@toolctx/core';
 * import { createToolServer, durableObjectRuns, type ExampleWorkerEnv } from '@toolctx/edge';
 * declare function runtimeFor(env: ExampleWorkerEnv): Runtime;
 * declare function verifyBearer(request: Request): Identity | null;
 * const app = createToolServer<ExampleWorkerEnv>({
 *   runtimeFor,
 *   runs: (env) => durableObjectRuns(env.RUNS, { identityState: env.IDENTITY_STATE }),
 *   authenticate: (request) => verifyBearer(request),
 * });
 * ```
 */
export function durableObjectRuns<E>(
  namespace: DurableObjectNamespace<RunHostObject<E>>,
  options: DurableObjectRunsOptions = {},
): RunDirectory {
  const host = (runId: string) => namespace.get(namespace.idFromName(runId));
  const { identityState } = options;
  const maxRuns = options.maxRunsPerIdentity ?? defaultLimits.maxRunsPerIdentity;
  return {
    async start(init) {
      if (!identityState) return host(init.runId).start(init);
      const counter = identityStateOf(identityState, init.identity);
      // One start time for the run's record and its entry in the list, which sorts by it.
      const createdAt = init.createdAt ?? Date.now();
      const listed: ListedRun = {
        runId: init.runId,
        owner: init.identity,
        phase: init.phase ?? 'act',
        createdAt,
        ended: false,
        ...(init.sessionId === undefined ? {} : { sessionId: init.sessionId }),
      };
      // RPC's result type (each branch `& Disposable`) no longer narrows on `ok`; the value is a plain Reply.
      const slot = (await counter.enlistRun(listed, maxRuns)) as Reply<{ live: number; taken: boolean }>;
      if (!slot.ok) return slot;
      // A run that did not start gives its slot back and leaves the list, whether its host refused or failed.
      let reply: Awaited<ReturnType<RunDirectory['start']>>;
      try {
        reply = await host(init.runId).start({ ...init, createdAt });
      } catch (error) {
        if (slot.value.taken) await counter.finishRun(listed, 0).catch(() => {});
        throw error;
      }
      if (!reply.ok && slot.value.taken) await counter.finishRun(listed, 0);
      return reply;
    },
    async list(caller, options) {
      if (!identityState)
        return refuse(
          501,
          'unsupported',
          "GET /runs lists each identity's runs where they are counted: pass durableObjectRuns(env.RUNS, { identityState: env.IDENTITY_STATE }) and the same identityState to createRunHost.",
        );
      const request = pageRequest(options);
      if (!request.ok) return request;
      const { after, limit } = request.value;
      const page = await identityStateOf(identityState, caller).listRuns(caller, after, limit);
      return ok(page as RunPage);
    },
    // The object is the run: its RPC methods are the run's verbs (RunHostObject implements
    // DoorRun); only the stub's RPC typing, which wraps each answer, needs the cast.
    get: (runId) => host(runId) as unknown as DoorRun,
  };
}
