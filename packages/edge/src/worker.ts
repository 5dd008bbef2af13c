// The Worker users deploy (`wrangler deploy`): the HTTP+SSE door in front, one Durable Object per
// run behind it, and the example tools. Replace `exampleTools` with your own.
import { createRuntime, type Runtime } from '@toolctx/core';
import type { Env } from './env.js';
import { exampleTools } from './example/index.js';
import { createKvR2ArtifactStore, createRunHost, createToolServer, durableObjectRuns } from './index.js';

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

/** The run host class bound as `RUNS` in wrangler.jsonc. */
export class RunHost extends createRunHost<Env>(runtimeFor) {}

/** Accepts `Authorization: Bearer <TOOLCTX_TOKEN>`; `X-Toolctx-Principal` names the user. */
async function authenticate(request: Request, env: Env) {
  const token = env.TOOLCTX_TOKEN;
  if (!token || request.headers.get('authorization') !== `Bearer ${token}`) return null;
  return { tenant: 'default', principal: request.headers.get('x-toolctx-principal') ?? 'anonymous' };
}

const app = createToolServer<Env>({ runtimeFor, runs: (env) => durableObjectRuns(env.RUNS), authenticate });

export default app satisfies ExportedHandler<Env>;
