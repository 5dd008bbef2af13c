import { type Reply, retryLater } from '../door-error.js';

/**
 * How much one run may hold at once. Past a limit the door answers `429 limit-exceeded` with a
 * `Retry-After` header, and nothing else changes: other runs, other identities and the calls and
 * streams already admitted carry on. Options of {@link createRunHost} and
 * {@link createMemoryRunDirectory}.
 *
 * @example
 * ```ts
 * import { createRunHost, type RunLimits } from '@toolctx/edge';
 * const limits: RunLimits = { maxCallsPerRun: 32, maxStreamsPerRun: 4 };
 * export class RunHost extends createRunHost<Env>(runtimeFor, limits) {}
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
  // Pending approvals per run are limited where they are kept: answer that limit with
  // `limitExceeded(...)` below, so every limit reads the same to a client.
}

/**
 * The defaults of {@link RunLimits} and of `maxRunsPerIdentity` (an option of
 * {@link durableObjectRuns} and {@link createMemoryRunDirectory}).
 *
 * @example
 * ```ts
 * import { defaultLimits, durableObjectRuns } from '@toolctx/edge';
 * const runs = durableObjectRuns(env.RUNS, { identityRuns: env.IDENTITY_RUNS, maxRunsPerIdentity: defaultLimits.maxRunsPerIdentity * 2 });
 * ```
 */
export const defaultLimits = Object.freeze({
  maxRunsPerIdentity: 100,
  maxCallsPerRun: 16,
  maxStreamsPerRun: 8,
});

/**
 * The 429 answer for a limit that is reached, naming the limit, its value and the option that
 * changes it. Exported so every limit (pending approvals too) answers the same way.
 *
 * @example
 * ```ts
 * import { limitExceeded } from '@toolctx/edge';
 * if (pending >= max) return limitExceeded('pending approvals per run', max, 'maxPendingApprovalsPerRun', 'Decide one first');
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
