import type { RunDirectory } from './run-directory.js';
import type { RunHostObject } from './run-host.js';

/**
 * Runs held by Durable Objects, one object per run (`idFromName(runId)`), so every request for a
 * run reaches the same live state wherever it lands.
 *
 * @example
 * ```ts
 * import { createToolServer, durableObjectRuns } from '@toolctx/edge';
 * const app = createToolServer<Env>({
 *   runtime,
 *   runs: (env) => durableObjectRuns(env.RUNS),
 *   authenticate: (request) => verifyBearer(request),
 * });
 * ```
 */
export function durableObjectRuns<E>(namespace: DurableObjectNamespace<RunHostObject<E>>): RunDirectory {
  const host = (runId: string) => namespace.get(namespace.idFromName(runId));
  return {
    start: (init) => host(init.runId).start(init),
    call: (runId, caller, call) => host(runId).call(caller, call),
    streamCall: (runId, caller, call) => host(runId).streamCall(caller, call),
    events: (runId, caller, after) => host(runId).events(caller, after),
    resume: (runId, caller, approvalId, decision) => host(runId).resume(caller, approvalId, decision),
    cancel: (runId, caller, callId) => host(runId).cancel(caller, callId),
    end: (runId, caller) => host(runId).end(caller),
  };
}
