// The Worker users deploy (`wrangler deploy`): the HTTP+SSE door in front, one Durable Object per
// run behind it, the example tools, and an hourly sweep of expired artifacts. Replace
// `exampleTools` with your own.
import { createRuntime, type Runtime } from '@toolctx/core';
import type { Env } from './env.js';
import { exampleTools } from './example/index.js';
import {
  ArtifactAdmissions,
  createKvR2ArtifactStore,
  createRunHost,
  createToolServer,
  durableObjectRuns,
  type RunHostOptions,
  sweepExpiredArtifacts,
} from './index.js';

// Per conversation: at most 1,000 artifacts and 100 MB, 25 MB each. ADMISSIONS keeps the caps
// exact however many Workers put at once.
const ARTIFACT_LIMITS = {
  maxCountPerScope: 1_000,
  maxBytesPerScope: 100_000_000,
  maxArtifactBytes: 25_000_000,
};

// The runtime needs the Worker's bindings (the artifact store), so it is made per env, once.
const runtimes = new WeakMap<Env, Runtime>();
function runtimeFor(env: Env): Runtime {
  let runtime = runtimes.get(env);
  if (!runtime) {
    runtime = createRuntime({
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
    runtimes.set(env, runtime);
  }
  return runtime;
}

/** A run's idle time and an ended run's retention, from vars when set (`--var TOOLCTX_RUN_IDLE_MS:60000`). */
function runHostOptions(env: Env): RunHostOptions {
  const options: RunHostOptions = {};
  const idleMs = msVar('TOOLCTX_RUN_IDLE_MS', env.TOOLCTX_RUN_IDLE_MS);
  const retentionMs = msVar('TOOLCTX_RUN_RETENTION_MS', env.TOOLCTX_RUN_RETENTION_MS);
  if (idleMs !== undefined) options.idleMs = idleMs;
  if (retentionMs !== undefined) options.retentionMs = retentionMs;
  return options;
}

function msVar(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new RangeError(`${name} must be a whole number of ms, not ${value}.`);
  return ms;
}

/** The run host class bound as `RUNS` in wrangler.jsonc. */
export class RunHost extends createRunHost<Env>(runtimeFor, runHostOptions) {}

/** The admissions class bound as `ADMISSIONS` in wrangler.jsonc. */
export { ArtifactAdmissions };

/** Accepts `Authorization: Bearer <TOOLCTX_TOKEN>`; `X-Toolctx-Principal` names the user. */
async function authenticate(request: Request, env: Env) {
  const token = env.TOOLCTX_TOKEN;
  if (!token || request.headers.get('authorization') !== `Bearer ${token}`) return null;
  return { tenant: 'default', principal: request.headers.get('x-toolctx-principal') ?? 'anonymous' };
}

const app = createToolServer<Env>({ runtimeFor, runs: (env) => durableObjectRuns(env.RUNS), authenticate });

/** The cron trigger in wrangler.jsonc: frees the R2 bytes of expired artifacts nobody met again. */
const scheduled: ExportedHandlerScheduledHandler<Env> = (_controller, env, ctx) => {
  ctx.waitUntil(sweepExpiredArtifacts({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }));
};

export default { fetch: app.fetch, scheduled } satisfies ExportedHandler<Env>;
