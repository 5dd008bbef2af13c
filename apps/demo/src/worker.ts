// The demo Worker: serves the page (static assets built by vite) and, under /api, the same tools
// the page runs in its Web Worker, through the HTTP+SSE door with one Durable Object per run.
import { createRuntime, type Identity } from '@toolctx/core';
import { createMemoryApprovalPort, staticCredentials } from '@toolctx/core/memory';
import {
  createKvR2ArtifactStore,
  createToolServer,
  durableObjectRuns,
  type ExampleWorkerEnv as EdgeEnv,
  sweepExpiredArtifacts,
} from '@toolctx/edge';
import { ArtifactAdmissions, createRunHost, IdentityStateObject } from '@toolctx/edge/durable-objects';
import { Hono } from 'hono';
import { DEMO_CREDENTIAL, demoTools } from './tools.js';

export interface Env extends EdgeEnv {
  ASSETS: Fetcher;
  /** The key `sign_message` signs with; `wrangler dev --var DEMO_API_KEY:…` or a secret when deployed. */
  DEMO_API_KEY?: string;
}

// A stand-in so `npm run demo` works with no set-up. It lives in the Worker only: the page never
// receives it, and the e2e test passes its own value to prove that.
const LOCAL_DEMO_KEY = 'local-demo-key-not-a-secret';

// Per conversation: at most 1,000 artifacts and 100 MB, 25 MB each, held exactly by ADMISSIONS.
const ARTIFACT_LIMITS = {
  maxCountPerScope: 1_000,
  maxBytesPerScope: 100_000_000,
  maxArtifactBytes: 25_000_000,
};

/** The demo's runtime for the Worker's bindings. The door and the run host call it once per env object (the library keeps what it made), so a plain function is enough. */
function runtimeFor(env: Env) {
  return createRuntime({
    tools: demoTools,
    artifacts: createKvR2ArtifactStore({
      kv: env.ARTIFACT_META,
      bucket: env.ARTIFACTS,
      admissions: env.ADMISSIONS,
      limits: ARTIFACT_LIMITS,
    }),
    credentials: staticCredentials({ [DEMO_CREDENTIAL]: env.DEMO_API_KEY ?? LOCAL_DEMO_KEY }),
    // Every approval waits for a person: the page answers through POST /api/approvals/:id.
    approval: createMemoryApprovalPort(),
  });
}

/** The run host class bound as `RUNS` in wrangler.jsonc; a run's end frees its identity's slot. */
export class RunHost extends createRunHost<Env>(runtimeFor, (env) => ({
  identityState: env.IDENTITY_STATE,
})) {}

/** Counts each identity's live runs (at most 100 by default), bound as `IDENTITY_STATE`. */
export class IdentityState extends IdentityStateObject {}

/** The admissions class bound as `ADMISSIONS` in wrangler.jsonc. */
export { ArtifactAdmissions };

// A local demo has no sign-in: everyone who reaches 127.0.0.1 is the one local user. The identity
// is fixed here, on the server, and never read from a request body; a deployed Worker would check
// a token or a session cookie instead (see packages/edge/src/worker.ts).
const localIdentity: Identity = { tenant: 'demo', principal: 'local', conversationId: 'demo' };

const runsOf = (env: Env) => durableObjectRuns(env.RUNS, { identityState: env.IDENTITY_STATE });
const api = createToolServer<Env>({ runtimeFor, runs: runsOf, authenticate: () => localIdentity });

const app = new Hono<{ Bindings: Env }>();
app.get('/health', (c) => c.json({ ok: true }));
app.route('/api', api);

/** The cron trigger in wrangler.jsonc: frees the R2 bytes of expired artifacts nobody met again. */
const scheduled: ExportedHandlerScheduledHandler<Env> = (_controller, env, ctx) => {
  ctx.waitUntil(sweepExpiredArtifacts({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }));
};

export default { fetch: app.fetch, scheduled } satisfies ExportedHandler<Env>;
