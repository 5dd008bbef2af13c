// src/worker.ts — the same tools as a Cloudflare Worker: the HTTP+SSE door in front, one Durable
// Object per run behind it, artifacts in R2 with their index in KV. Deploy with `wrangler deploy`.
import { createRuntime } from '@toolctx/core';
import {
  createKvR2ArtifactStore,
  createToolServer,
  durableObjectRuns,
  type ExampleWorkerEnv,
  sweepExpiredArtifacts,
} from '@toolctx/edge';
import { ArtifactAdmissions, createRunHost, IdentityStateObject } from '@toolctx/edge/durable-objects';
import { tools } from './tools.js';

// The runtime for the Worker's bindings. The door and the run host each call it once per env
// object and keep what it made, so requests and runs share one runtime.
const runtimeFor = (env: ExampleWorkerEnv) =>
  createRuntime({
    tools,
    artifacts: createKvR2ArtifactStore({
      kv: env.ARTIFACT_META,
      bucket: env.ARTIFACTS,
      // Per conversation; one ArtifactAdmissions object per scope keeps the caps exact.
      limits: { maxCountPerScope: 1_000, maxBytesPerScope: 100_000_000 },
      admissions: env.ADMISSIONS,
    }),
  });

// One Durable Object per run; the class names must match `class_name` in wrangler.jsonc. A run's
// end frees its identity's slot in IDENTITY_STATE (runs per identity are limited, 100 by default).
export class RunHost extends createRunHost<ExampleWorkerEnv>(runtimeFor, (env) => ({
  identityState: env.IDENTITY_STATE,
})) {}
export class IdentityState extends IdentityStateObject {}
export { ArtifactAdmissions };

const app = createToolServer<ExampleWorkerEnv>({
  runtimeFor,
  runs: (env) => durableObjectRuns(env.RUNS, { identityState: env.IDENTITY_STATE }),
  // Pages on these origins (comma-separated, e.g. https://app.example.com) may call the Worker;
  // their preflights are answered before authenticate. Unset: only same-origin pages can.
  cors: (env) => {
    const origins = env.TOOLCTX_ALLOWED_ORIGINS?.split(',').filter(Boolean);
    return origins?.length ? { origins } : undefined;
  },
  // Identity comes only from here, never from a request body or a header the client picks; null
  // or { refused } answers 401. One token, one principal: to tell users apart, give each a token
  // of their own and map it to them here.
  authenticate: (request, env) => {
    if (!env.TOOLCTX_TOKEN)
      return {
        refused:
          'TOOLCTX_TOKEN is not set: add it to .dev.vars (wrangler dev) or run wrangler secret put TOOLCTX_TOKEN.',
      };
    return request.headers.get('authorization') === `Bearer ${env.TOOLCTX_TOKEN}`
      ? { tenant: 'acme', principal: 'owner' }
      : null;
  },
  // Against DNS rebinding, only these Host names are answered (any other is a 421): the loopback
  // names `wrangler dev` serves on, and the names the Worker is deployed at.
  allowedHosts: ['localhost', '127.0.0.1', '[::1]', 'tools.example.com'],
});

export default {
  fetch: app.fetch,
  // The cron trigger in wrangler.jsonc: deletes expired artifacts nobody asked for again.
  scheduled: (_controller, env, ctx) =>
    ctx.waitUntil(sweepExpiredArtifacts({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS })),
} satisfies ExportedHandler<ExampleWorkerEnv>;
