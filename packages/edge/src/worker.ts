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

/** Accepts `Authorization: Bearer <TOOLCTX_TOKEN>`; `X-Toolctx-Principal` names the user. */
async function authenticate(request: Request, env: Env) {
  const token = env.TOOLCTX_TOKEN;
  if (!token || request.headers.get('authorization') !== `Bearer ${token}`) return null;
  return { tenant: 'default', principal: request.headers.get('x-toolctx-principal') ?? 'anonymous' };
}

const app = createToolServer<Env>({ runtimeFor, runs: (env) => durableObjectRuns(env.RUNS), authenticate });

export default app satisfies ExportedHandler<Env>;
