import type { IdentityRunsObject, RunHostObject } from './run-host/index.js';

/**
 * The bindings the toolctx Worker expects, as its `wrangler.jsonc` declares them.
 *
 * @example
 * ```ts
 * import { durableObjectRuns, type Env } from '@toolctx/edge';
 * const runs = (env: Env) => durableObjectRuns(env.RUNS);
 * ```
 */
export interface Env {
  /** KV namespace holding artifact metadata. */
  ARTIFACT_META: KVNamespace;
  /** R2 bucket holding artifact bytes. */
  ARTIFACTS: R2Bucket;
  /** One Durable Object per run. */
  RUNS: DurableObjectNamespace<RunHostObject<Env>>;
  /** One Durable Object per identity, counting its live runs (`maxRunsPerIdentity`). */
  IDENTITY_RUNS: DurableObjectNamespace<IdentityRunsObject>;
  /** The bearer token the example Worker accepts; unset, every request is refused. */
  TOOLCTX_TOKEN?: string;
  /** The example Worker's limits, as whole numbers; unset, the defaults (100, 16, 8). */
  TOOLCTX_MAX_RUNS_PER_IDENTITY?: string;
  TOOLCTX_MAX_CALLS_PER_RUN?: string;
  TOOLCTX_MAX_STREAMS_PER_RUN?: string;
}
