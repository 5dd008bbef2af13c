import { defaultMaxQueuedBytes } from '../door/channel.js';
import { type Reply, retryLater } from '../door/door-error.js';

/**
 * How much one run may hold at once. Past a limit the door answers `429 limit-exceeded` with a
 * `Retry-After` header, and nothing else changes: other runs, other identities and the calls and
 * streams already admitted carry on. Options of {@link durable-objects!createRunHost} and
 * {@link createMemoryRunDirectory}.
 *
 * @example
 * ```ts
 * import type { Runtime } from '@toolctx/core';
 * import type { ExampleWorkerEnv, RunLimits } from '@toolctx/edge';
 * import { createRunHost } from '@toolctx/edge/durable-objects';
 * declare function runtimeFor(env: ExampleWorkerEnv): Runtime;
 * const limits: RunLimits = { maxCallsPerRun: 32, maxStreamsPerRun: 4, maxPendingApprovalsPerRun: 8 };
 * export class RunHost extends createRunHost<ExampleWorkerEnv>(runtimeFor, limits) {}
 * ```
 */
export interface RunLimits {
  /** Calls running at once in one run (JSON and SSE calls alike). Default 16. */
  maxCallsPerRun?: number;
  /**
   * Event streams open at once on one run: `GET /runs/:id/events` readers and SSE calls. A reader
   * that hung up frees its slot when a heartbeat write to it fails (`heartbeatMs`, default 500 ms;
   * under `wrangler dev` about 2 s after the hang-up). Default 8.
   */
  maxStreamsPerRun?: number;
  /**
   * Calls waiting for a person's decision in one run. With this many pending, a call to a tool that
   * may ask for approval is refused at admission: one whose `needsApproval` is `true` or a
   * predicate (a predicate counts as may-ask, since its answer depends on the arguments and comes
   * after admission), or a `send` tool, which the lethal-trifecta rule may make ask. Other tools,
   * deciding or cancelling an approval, and other runs are not affected; a decision or a cancel
   * frees a slot. Counted from the run's one store of pending approvals, so the count cannot drift
   * from what can be decided; calls admitted but not yet pending are not counted, so a run can
   * overshoot by at most the calls that were in flight at once (`maxCallsPerRun`). Default 16.
   */
  maxPendingApprovalsPerRun?: number;
  /**
   * How far one reader of a run's stream (`GET /runs/:id/events`, an SSE or streamed JSON call, a
   * resumed approval) may fall behind, in bytes written to it and not yet read. A reader past it
   * that has taken nothing for 100 ms is dropped: what was queued for it is let go and its stream
   * ends (after the piece in flight; a burst within one turn drops nobody), an events reader resumes
   * with `Last-Event-ID` and misses nothing the log still keeps (`maxEvents`), and a call whose
   * stream it was goes on (its result stays at `GET /runs/:id/calls/:callId`). So a reader that
   * stops reading costs the run's object at most this much, however chatty the run. Heartbeats
   * count; a reader that keeps up is never near it. Default 1 MiB.
   */
  maxQueuedBytesPerStream?: number;
}

/**
 * The defaults of {@link RunLimits}, of `maxRunsPerIdentity` (an option of
 * {@link durableObjectRuns} and {@link createMemoryRunDirectory}), of the MCP routes'
 * `sessionLimit.maxSessionsPerIdentity` and of `callLimit.maxCallsPerIdentity`
 * ({@link IdentityCallLimit}). 16 calls in flight per identity is the run's `maxCallsPerRun`: an
 * agent's turn asks for a handful of parallel calls, so 16 lets a principal run a few turns at
 * once, while a flood from one principal holds 16 calls' worth of the Worker, not all of it.
 *
 * @example
 * ```ts
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * declare const env: ExampleWorkerEnv;
 * import { defaultLimits, durableObjectRuns } from '@toolctx/edge';
 * const runs = durableObjectRuns(env.RUNS, { identityState: env.IDENTITY_STATE, maxRunsPerIdentity: defaultLimits.maxRunsPerIdentity * 2 });
 * ```
 */
export const defaultLimits = Object.freeze({
  maxRunsPerIdentity: 100,
  maxSessionsPerIdentity: 100,
  maxCallsPerIdentity: 16,
  maxCallsPerRun: 16,
  maxStreamsPerRun: 8,
  maxPendingApprovalsPerRun: 16,
  maxQueuedBytesPerStream: defaultMaxQueuedBytes,
});

/**
 * The 429 answer for a limit that is reached, naming the limit, its value and the option that
 * changes it. Exported so every limit, a host's own too, answers the same way.
 *
 * @example
 * ```ts
 * import { limitExceeded } from '@toolctx/edge';
 * const checkApprovals = (pending: number, max: number) =>
 *   pending >= max ? limitExceeded('pending approvals per run', max, 'maxPendingApprovalsPerRun', 'Decide one first') : undefined;
 * ```
 */
export function limitExceeded(
  what: string,
  limit: number,
  option: string,
  advice: string,
  retryAfterSeconds = 1,
): Reply<never> {
  return retryLater(
    `The limit of ${limit} ${what} is reached. ${advice}, or raise the limit with the \`${option}\` option.`,
    { limit, option },
    retryAfterSeconds,
  );
}
