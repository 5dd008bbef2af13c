// The Worker users deploy (`wrangler deploy`): the HTTP+SSE door in front, one Durable Object per
// run behind it, the example tools, and an hourly sweep of expired artifacts. Replace
// `exampleTools` with your own.
import { createRuntime, type Runtime } from '@toolctx/core';
import {
  ArtifactAdmissions,
  createRunHost,
  IdentityRunsObject,
  type RunHostOptions,
} from './durable-objects/index.js';
import type { Env } from './env.js';
import { exampleTools } from './example/index.js';
import {
  type AuthAnswer,
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
function runtimeFor(env: Env): Runtime {
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
 * day, 100 runs per identity, 16 calls, 8 streams and 16 pending approvals per run, and request
 * bodies of at most 1 MiB, read within 10 s.
 */
function varsOf(env: Env) {
  const names = {
    idleMs: 'TOOLCTX_RUN_IDLE_MS',
    retentionMs: 'TOOLCTX_RUN_RETENTION_MS',
    maxRunsPerIdentity: 'TOOLCTX_MAX_RUNS_PER_IDENTITY',
    maxCallsPerRun: 'TOOLCTX_MAX_CALLS_PER_RUN',
    maxStreamsPerRun: 'TOOLCTX_MAX_STREAMS_PER_RUN',
    maxPendingApprovalsPerRun: 'TOOLCTX_MAX_PENDING_APPROVALS_PER_RUN',
    maxBodyBytes: 'TOOLCTX_MAX_BODY_BYTES',
    bodyTimeoutMs: 'TOOLCTX_BODY_TIMEOUT_MS',
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

/** The run host's options; a run's end frees its identity's slot in IDENTITY_RUNS. */
function runHostOptions(env: Env): RunHostOptions {
  const { maxRunsPerIdentity: _, maxBodyBytes: __, bodyTimeoutMs: ___, ...options } = varsOf(env);
  return { ...options, identityRuns: env.IDENTITY_RUNS };
}

/** The run host class bound as `RUNS` in wrangler.jsonc. */
export class RunHost extends createRunHost<Env>(runtimeFor, runHostOptions) {}

/** The admissions class bound as `ADMISSIONS` in wrangler.jsonc. */
export { ArtifactAdmissions };

/** Counts each identity's live runs, bound as `IDENTITY_RUNS` in wrangler.jsonc. */
export class IdentityRuns extends IdentityRunsObject {}

/**
 * Who calls is read from the token alone, never from a header the client picks: `Bearer
 * <TOOLCTX_TOKEN>` is the principal `default`, and `Bearer <principal>.<signature>` is that
 * principal, where the signature is the base64url HMAC-SHA-256 of the principal's name keyed with
 * TOOLCTX_TOKEN. So one secret serves any number of users, each token names its holder, and only
 * whoever holds TOOLCTX_TOKEN can mint one (README: "Deploy as a Cloudflare Worker"). Tokens are
 * compared as SHA-256 digests in constant time, so the answer's timing tells nothing of how much
 * of a guess was right. A refusal says which configuration is missing, never a token.
 */
async function authenticate(request: Request, env: Env): Promise<AuthAnswer> {
  const secret = env.TOOLCTX_TOKEN;
  if (!secret)
    return {
      refused:
        'TOOLCTX_TOKEN is not set for this Worker, so it refuses every request: put TOOLCTX_TOKEN=<token> in .dev.vars for wrangler dev, or run wrangler secret put TOOLCTX_TOKEN.',
    };
  const refused = {
    refused:
      "Send Authorization: Bearer <token>, with this Worker's TOOLCTX_TOKEN or a principal's token made from it.",
  };
  const header = request.headers.get('authorization');
  if (!header?.startsWith('Bearer ')) return refused;
  const token = header.slice('Bearer '.length);
  const dot = token.lastIndexOf('.');
  // A token without a dot can only be the secret itself; with one, the name before the last dot
  // (a name may hold dots, base64url never does) and the signature that name must carry.
  const principal = dot === -1 ? 'default' : token.slice(0, dot);
  const expected = dot === -1 ? secret : `${principal}.${await signature(secret, principal)}`;
  return (await sameSecret(token, expected)) ? { tenant: 'default', principal } : refused;
}

const utf8 = new TextEncoder();

/** The base64url HMAC-SHA-256 of `principal` keyed with `secret`: its token's second half. */
async function signature(secret: string, principal: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    utf8.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8.encode(principal)));
  return btoa(String.fromCharCode(...mac))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * Whether two strings are equal, in time that depends on neither: their SHA-256 digests (always
 * 32 bytes) are compared with workerd's `crypto.subtle.timingSafeEqual`, or where it is missing
 * with an XOR over every byte.
 */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = (await Promise.all(
    [given, expected].map(
      async (text) => new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(text))),
    ),
  )) as [Uint8Array, Uint8Array];
  const subtle = crypto.subtle as SubtleCrypto & {
    timingSafeEqual?: (a: ArrayBufferView, b: ArrayBufferView) => boolean;
  };
  if (typeof subtle.timingSafeEqual === 'function') return subtle.timingSafeEqual(a, b);
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/** Pages on the origins in `TOOLCTX_ALLOWED_ORIGINS` (comma-separated) may call the Worker. */
function corsOf(env: Env): ToolServerCors | undefined {
  const origins = listOf(env.TOOLCTX_ALLOWED_ORIGINS);
  return origins.length > 0 ? { origins } : undefined;
}

/**
 * The names the Worker answers in `Host`: those in `TOOLCTX_ALLOWED_HOSTS` (comma-separated, such
 * as `toolctx.example.workers.dev`); unset, the loopback names `wrangler dev` serves on.
 */
function allowedHostsOf(env: Env): string[] | undefined {
  const hosts = listOf(env.TOOLCTX_ALLOWED_HOSTS);
  return hosts.length > 0 ? hosts : undefined;
}

function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

const app = createToolServer<Env>({
  runtimeFor,
  runs: (env) =>
    durableObjectRuns(env.RUNS, {
      identityRuns: env.IDENTITY_RUNS,
      maxRunsPerIdentity: varsOf(env).maxRunsPerIdentity,
    }),
  authenticate,
  cors: corsOf,
  allowedHosts: allowedHostsOf,
  maxBodyBytes: (env) => varsOf(env).maxBodyBytes,
  bodyTimeoutMs: (env) => varsOf(env).bodyTimeoutMs,
});

/** The cron trigger in wrangler.jsonc: frees the R2 bytes of expired artifacts nobody met again. */
const scheduled: ExportedHandlerScheduledHandler<Env> = (_controller, env, ctx) => {
  ctx.waitUntil(sweepExpiredArtifacts({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }));
};

export default { fetch: app.fetch, scheduled } satisfies ExportedHandler<Env>;
