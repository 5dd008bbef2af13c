// The Worker users deploy (`wrangler deploy`): the HTTP+SSE door in front, one Durable Object per
// run behind it, and the example tools. Replace `exampleTools` with your own.
import { createRuntime, type Runtime } from '@toolctx/core';
import type { Env } from './env.js';
import { exampleTools } from './example/index.js';
import {
  createKvR2ArtifactStore,
  createRunHost,
  createToolServer,
  durableObjectRuns,
  IdentityRunsObject,
  type RunHostOptions,
} from './index.js';

// The runtime needs the Worker's bindings (the artifact store), so it is made per env, once.
const runtimes = new WeakMap<Env, Runtime>();
function runtimeFor(env: Env): Runtime {
  let runtime = runtimes.get(env);
  if (!runtime) {
    runtime = createRuntime({
      tools: exampleTools,
      artifacts: createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }),
      // Approvals wait for a person: POST /approvals/:id decides them.
      approval: { request: async () => 'pending' },
    });
    runtimes.set(env, runtime);
  }
  return runtime;
}

/**
 * The limits, from optional vars (`"vars"` in wrangler.jsonc, or `wrangler dev --var`); unset,
 * the defaults: 100 runs per identity, 16 calls and 8 streams per run.
 */
function limitsOf(env: Env): RunHostOptions & { maxRunsPerIdentity?: number } {
  const limits: RunHostOptions & { maxRunsPerIdentity?: number } = {};
  const read = (value: string | undefined) => (value ? Number.parseInt(value, 10) : undefined);
  const runs = read(env.TOOLCTX_MAX_RUNS_PER_IDENTITY);
  const calls = read(env.TOOLCTX_MAX_CALLS_PER_RUN);
  const streams = read(env.TOOLCTX_MAX_STREAMS_PER_RUN);
  if (runs) limits.maxRunsPerIdentity = runs;
  if (calls) limits.maxCallsPerRun = calls;
  if (streams) limits.maxStreamsPerRun = streams;
  return limits;
}

/** The run host class bound as `RUNS` in wrangler.jsonc; a run's end frees its identity's slot. */
export class RunHost extends createRunHost<Env>(runtimeFor, (env) => ({
  ...limitsOf(env),
  identityRuns: env.IDENTITY_RUNS,
})) {}

/** Counts each identity's live runs, bound as `IDENTITY_RUNS` in wrangler.jsonc. */
export class IdentityRuns extends IdentityRunsObject {}

/** Accepts `Authorization: Bearer <TOOLCTX_TOKEN>`; `X-Toolctx-Principal` names the user. */
async function authenticate(request: Request, env: Env) {
  const token = env.TOOLCTX_TOKEN;
  if (!token || request.headers.get('authorization') !== `Bearer ${token}`) return null;
  return { tenant: 'default', principal: request.headers.get('x-toolctx-principal') ?? 'anonymous' };
}

const app = createToolServer<Env>({
  runtimeFor,
  runs: (env) =>
    durableObjectRuns(env.RUNS, {
      identityRuns: env.IDENTITY_RUNS,
      maxRunsPerIdentity: limitsOf(env).maxRunsPerIdentity,
    }),
  authenticate,
});

export default app satisfies ExportedHandler<Env>;
