import type { IdentityStateObject } from './run-host/identity-state.js';
import type { RunHostObject } from './run-host/run-host.js';
import type { ArtifactAdmissions } from './stores/artifact-admissions.js';

/**
 * The bindings of the example Worker (`src/worker.ts`), as its `wrangler.jsonc` declares them. A
 * Worker of your own declares its own; this one types the examples, and a Worker that copies the
 * example's `wrangler.jsonc`.
 *
 * @example
 * ```ts
 * import { durableObjectRuns, type ExampleWorkerEnv } from '@toolctx/edge';
 * const runs = (env: ExampleWorkerEnv) => durableObjectRuns(env.RUNS);
 * ```
 */
export interface ExampleWorkerEnv {
  /** KV namespace holding artifact metadata. */
  ARTIFACT_META: KVNamespace;
  /** R2 bucket holding artifact bytes. */
  ARTIFACTS: R2Bucket;
  /** One Durable Object per artifact scope, keeping the per-scope caps exact across Workers. */
  ADMISSIONS: DurableObjectNamespace<ArtifactAdmissions>;
  /** One Durable Object per run. */
  RUNS: DurableObjectNamespace<RunHostObject<ExampleWorkerEnv>>;
  /** One Durable Object per identity, counting its live runs (`maxRunsPerIdentity`) and calls in flight (`callLimit`). */
  IDENTITY_STATE: DurableObjectNamespace<IdentityStateObject>;
  /**
   * The example Worker's secret: `Bearer <TOOLCTX_TOKEN>` is the principal `default`, and a
   * principal's own token is signed with it (`<principal>.<HMAC-SHA-256>`); unset, every request is refused.
   */
  TOOLCTX_TOKEN?: string;
  /** Host names (comma-separated) the example Worker answers in `Host` (`allowedHosts`); unset, the loopback names. */
  TOOLCTX_ALLOWED_HOSTS?: string;
  /** Origins (comma-separated) whose pages may call the example Worker (CORS); unset, none. */
  TOOLCTX_ALLOWED_ORIGINS?: string;
  /** The example Worker's idle time of a run, in ms (`RunHostOptions.idleMs`); unset, 15 minutes. */
  TOOLCTX_RUN_IDLE_MS?: string;
  /** How long the example Worker keeps an ended run, in ms (`RunHostOptions.retentionMs`); unset, a day. */
  TOOLCTX_RUN_RETENTION_MS?: string;
  /** The example Worker's limits, as whole numbers; unset, the defaults (100, 16, 16, 8, 16). */
  TOOLCTX_MAX_RUNS_PER_IDENTITY?: string;
  TOOLCTX_MAX_CALLS_PER_IDENTITY?: string;
  TOOLCTX_MAX_CALLS_PER_RUN?: string;
  TOOLCTX_MAX_STREAMS_PER_RUN?: string;
  TOOLCTX_MAX_PENDING_APPROVALS_PER_RUN?: string;
  /** How long a one-shot call's slot outlives an isolate that died mid-call, in ms (`callLimit.leaseMs`); unset, 30 s. */
  TOOLCTX_CALL_LEASE_MS?: string;
  /** Bytes a stream's reader may fall behind before it is dropped (`maxQueuedBytesPerStream`); unset, 1 MiB. */
  TOOLCTX_MAX_QUEUED_BYTES_PER_STREAM?: string;
  /** The largest request body the example Worker reads, in bytes (`maxBodyBytes`); unset, 1 MiB. */
  TOOLCTX_MAX_BODY_BYTES?: string;
  /** How long the example Worker waits for a request body, in ms (`bodyTimeoutMs`); unset, 10 s. */
  TOOLCTX_BODY_TIMEOUT_MS?: string;
  /** How old an unfinished artifact put is when the example Worker's sweep removes it, in ms (`abandonedAfterMs`); unset, a day. */
  TOOLCTX_ABANDONED_PUT_MS?: string;
}
