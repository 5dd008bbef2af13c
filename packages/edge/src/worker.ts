// The Worker users deploy (`wrangler deploy`): the HTTP+SSE door in front, one Durable Object per
// run behind it, the example tools, and an hourly sweep of expired artifacts. Replace
// `exampleTools` with your own.
import { createRuntime, type Runtime } from '@toolctx/core';
import {
  ArtifactAdmissions,
  createRunHost,
  IdentityStateObject,
  type RunHostOptions,
} from './durable-objects/index.js';
import type { ExampleWorkerEnv } from './env.js';
import { exampleTools } from './example/index.js';
import { authenticate } from './example/token-auth.js';
import {
  createKvR2ArtifactStore,
  createToolServer,
  durableObjectRuns,
  sweepExpiredArtifacts,
  type ToolServerCors,
} from './index.js';

// Per conversation: at most 1,000 artifacts and 100 MB, 25 MB each. ADMISSIONS keeps the caps
// exact however many Workers put at once.
const ARTIFACT_LIMITS = {
  maxCountPerScope: 1_000,
  maxBytesPerScope: 100_000_000,
  maxArtifactBytes: 25_000_000,
};

// The runtime needs the Worker's bindings (the artifact store). The door and the run host call
// it once per env object and keep what it made, so it needs no cache of its own.
function runtimeFor(env: ExampleWorkerEnv): Runtime {
  return createRuntime({
    tools: exampleTools,
    artifacts: createKvR2ArtifactStore({
      kv: env.ARTIFACT_META,
      bucket: env.ARTIFACTS,
      admissions: env.ADMISSIONS,
      limits: ARTIFACT_LIMITS,
    }),
    // Approvals wait for a person: POST /approvals/:id decides them.
    approval: { request: async () => 'pending' },
  });
}

/**
 * The example Worker's optional vars (`"vars"` in wrangler.jsonc, or `wrangler dev --var
 * TOOLCTX_RUN_IDLE_MS:60000`), as whole numbers; unset, the defaults: idle 15 minutes, retention a
 * day, 100 runs and 16 one-shot calls in flight per identity (a call's slot leased for 30 s), 16
 * calls, 8 streams and 16 pending approvals per run, readers dropped 1 MiB behind, request
 * bodies of at most 1 MiB, read within 10 s, and an artifact put a day old taken as abandoned.
 */
function varsOf(env: ExampleWorkerEnv) {
  const names = {
    idleMs: 'TOOLCTX_RUN_IDLE_MS',
    retentionMs: 'TOOLCTX_RUN_RETENTION_MS',
    maxRunsPerIdentity: 'TOOLCTX_MAX_RUNS_PER_IDENTITY',
    maxCallsPerIdentity: 'TOOLCTX_MAX_CALLS_PER_IDENTITY',
    callLeaseMs: 'TOOLCTX_CALL_LEASE_MS',
    maxCallsPerRun: 'TOOLCTX_MAX_CALLS_PER_RUN',
    maxStreamsPerRun: 'TOOLCTX_MAX_STREAMS_PER_RUN',
    maxPendingApprovalsPerRun: 'TOOLCTX_MAX_PENDING_APPROVALS_PER_RUN',
    maxQueuedBytesPerStream: 'TOOLCTX_MAX_QUEUED_BYTES_PER_STREAM',
    maxBodyBytes: 'TOOLCTX_MAX_BODY_BYTES',
    bodyTimeoutMs: 'TOOLCTX_BODY_TIMEOUT_MS',
    abandonedPutMs: 'TOOLCTX_ABANDONED_PUT_MS',
  } as const;
  const vars: { -readonly [option in keyof typeof names]?: number } = {};
  for (const option of Object.keys(names) as (keyof typeof names)[]) {
    const value = env[names[option]];
    if (value === undefined || value === '') continue;
    const number = Number(value);
    if (!Number.isSafeInteger(number) || number <= 0)
      throw new RangeError(`${names[option]} must be a whole number above 0, not ${JSON.stringify(value)}.`);
    vars[option] = number;
  }
  return vars;
}

/** The run host's options; a run's end frees its identity's slot in IDENTITY_STATE. */
function runHostOptions(env: ExampleWorkerEnv): RunHostOptions {
  const {
    maxRunsPerIdentity: _,
    maxBodyBytes: __,
    maxCallsPerIdentity: ___,
    callLeaseMs: ____,
    bodyTimeoutMs: _____,
    abandonedPutMs: ______,
    ...options
  } = varsOf(env);
  return { ...options, identityState: env.IDENTITY_STATE };
}

/** The run host class bound as `RUNS` in wrangler.jsonc. */
export class RunHost extends createRunHost<ExampleWorkerEnv>(runtimeFor, runHostOptions) {}

/** The admissions class bound as `ADMISSIONS` in wrangler.jsonc. */
export { ArtifactAdmissions };

/** Counts each identity's live runs and one-shot calls, and lists its runs (GET /runs), bound as `IDENTITY_STATE` in wrangler.jsonc. */
export class IdentityState extends IdentityStateObject {}

/** Pages on the origins in `TOOLCTX_ALLOWED_ORIGINS` (comma-separated) may call the Worker. */
function corsOf(env: ExampleWorkerEnv): ToolServerCors | undefined {
  const origins = listOf(env.TOOLCTX_ALLOWED_ORIGINS);
  return origins.length > 0 ? { origins } : undefined;
}

/**
 * The names the Worker answers in `Host`: those in `TOOLCTX_ALLOWED_HOSTS` (comma-separated, such
 * as `toolctx.example.workers.dev`); unset, the loopback names `wrangler dev` serves on.
 */
function allowedHostsOf(env: ExampleWorkerEnv): string[] | undefined {
  const hosts = listOf(env.TOOLCTX_ALLOWED_HOSTS);
  return hosts.length > 0 ? hosts : undefined;
}

function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

const app = createToolServer<ExampleWorkerEnv>({
  runtimeFor,
  runs: (env) =>
    durableObjectRuns(env.RUNS, {
      identityState: env.IDENTITY_STATE,
      maxRunsPerIdentity: varsOf(env).maxRunsPerIdentity,
    }),
  authenticate,
  cors: corsOf,
  allowedHosts: allowedHostsOf,
  maxBodyBytes: (env) => varsOf(env).maxBodyBytes,
  // Each identity's one-shot calls in flight, counted where its runs are.
  callLimit: (env) => {
    const { maxCallsPerIdentity, callLeaseMs } = varsOf(env);
    return {
      binding: 'IDENTITY_STATE',
      ...(maxCallsPerIdentity ? { maxCallsPerIdentity } : {}),
      ...(callLeaseMs ? { leaseMs: callLeaseMs } : {}),
    };
  },
  bodyTimeoutMs: (env) => varsOf(env).bodyTimeoutMs,
});

/**
 * The cron trigger in wrangler.jsonc: frees the R2 bytes of expired artifacts nobody met again,
 * and of puts a crash cut short (`TOOLCTX_ABANDONED_PUT_MS` after they began; a day unset).
 */
const scheduled: ExportedHandlerScheduledHandler<ExampleWorkerEnv> = (_controller, env, ctx) => {
  const { abandonedPutMs } = varsOf(env);
  ctx.waitUntil(
    sweepExpiredArtifacts({
      kv: env.ARTIFACT_META,
      bucket: env.ARTIFACTS,
      ...(abandonedPutMs ? { abandonedAfterMs: abandonedPutMs } : {}),
    }),
  );
};

export default { fetch: app.fetch, scheduled } satisfies ExportedHandler<ExampleWorkerEnv>;
