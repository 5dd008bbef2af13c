// The Worker users deploy (`wrangler deploy`): the HTTP+SSE door in front, one Durable Object per
// run behind it, and the example tools. Replace `exampleTools` with your own.
import { createRuntime } from '@toolctx/core';
import type { Env } from './env.js';
import { exampleTools } from './example/index.js';
import { createRunHost, createToolServer, durableObjectRuns } from './index.js';

const runtime = createRuntime({ tools: exampleTools });

/** The run host class bound as `RUNS` in wrangler.jsonc. */
export class RunHost extends createRunHost<Env>(() => runtime) {}

/** Accepts `Authorization: Bearer <TOOLCTX_TOKEN>`; `X-Toolctx-Principal` names the user. */
async function authenticate(request: Request, env: Env) {
  const token = env.TOOLCTX_TOKEN;
  if (!token || request.headers.get('authorization') !== `Bearer ${token}`) return null;
  return { tenant: 'default', principal: request.headers.get('x-toolctx-principal') ?? 'anonymous' };
}

const app = createToolServer<Env>({ runtime, runs: (env) => durableObjectRuns(env.RUNS), authenticate });

export default app satisfies ExportedHandler<Env>;
