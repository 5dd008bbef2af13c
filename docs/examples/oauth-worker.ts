// src/worker.ts for users who sign in — both doors behind @cloudflare/workers-oauth-provider: it
// serves the OAuth metadata, client registration, PKCE and the token endpoint, lets through only
// requests with its tokens, and hands each grant's props to the app as ctx.props.
import { AuthorizationError, type OAuthHelpers, OAuthProvider } from '@cloudflare/workers-oauth-provider';
import { createRuntime } from '@toolctx/core';
import {
  type Authenticate,
  createKvR2ArtifactStore,
  createToolServer,
  durableObjectRuns,
  mountMcp,
} from '@toolctx/edge';
import { createMcpSession, createRunHost } from '@toolctx/edge/durable-objects';
import { signIn } from './sign-in.js';
import { tools } from './tools.js';

type Env = {
  ARTIFACT_META: KVNamespace;
  ARTIFACTS: R2Bucket;
  RUNS: DurableObjectNamespace<RunHost>;
  MCP_SESSIONS: DurableObjectNamespace<ToolsMcpSession>;
  /** The provider's clients, grants and tokens. */
  OAUTH_KV: KVNamespace;
  /** Put there by the provider, for the consent page. */
  OAUTH_PROVIDER: OAuthHelpers;
  /** Where clients reach the Worker (https://tools.example.com): the resource its tokens are for. */
  PUBLIC_ORIGIN: string;
  /** `true` lets src/sign-in.ts's stand-in sign anyone in: `.dev.vars` only. */
  DEV_SIGN_IN?: string;
};

// One runtime for both doors: a user's artifacts are theirs on either.
const runtimeFor = (env: Env) =>
  createRuntime({
    tools,
    artifacts: createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }),
  });
export class RunHost extends createRunHost<Env>(runtimeFor) {}
export class ToolsMcpSession extends createMcpSession<Env>(runtimeFor) {}

// The provider let the request through with a valid token; the grant's props are in ctx.props.
const authenticate: Authenticate<Env> = (_request, _env, ctx) => {
  const { user } = (ctx?.props ?? {}) as { user?: unknown };
  return typeof user === 'string' ? { tenant: 'acme', principal: user } : null;
};
const allowedHosts = ['localhost', '127.0.0.1', '[::1]', 'tools.example.com'];
const app = createToolServer<Env>({
  runtimeFor,
  runs: (env) => durableObjectRuns(env.RUNS),
  authenticate,
  allowedHosts,
});
mountMcp(app, { binding: 'MCP_SESSIONS', authenticate, allowedHosts });

// The /authorize page: sign the person in, then grant the client a code for them.
const consentPage: ExportedHandler<Env> = {
  async fetch(request, env) {
    const authRequest = await env.OAUTH_PROVIDER.parseAuthRequest(request).catch(refused);
    if (authRequest instanceof Response) return authRequest;
    const user = await signIn(request, env);
    if (user instanceof Response) return user; // not signed in (yet)
    const { redirectTo } = await env.OAUTH_PROVIDER.completeAuthorization({
      request: authRequest,
      userId: user,
      metadata: {},
      scope: authRequest.scope,
      props: { user }, // what authenticate reads from ctx.props
    });
    return Response.redirect(redirectTo, 302);
  },
};

/** A request the provider refused (another resource, an unknown client): back to the client when that is safe. */
function refused(error: unknown): Response {
  if (!(error instanceof AuthorizationError)) throw error;
  if (error.redirectTo) return Response.redirect(error.redirectTo, 302);
  return new Response(`${error.code}: ${error.description}`, { status: 400 });
}

// The resource is fixed when the provider is made, so it is made on the first request, from the env.
let provider: OAuthProvider<Env> | undefined;
function providerFor(env: Env): OAuthProvider<Env> {
  const origin = env.PUBLIC_ORIGIN;
  provider ??= new OAuthProvider<Env>({
    // Every route of both doors needs a token; the provider answers the 401 with its challenge.
    apiRoute: ['/mcp', '/tools', '/runs', '/calls', '/approvals', '/artifacts'],
    apiHandler: app,
    defaultHandler: consentPage,
    authorizeEndpoint: '/authorize',
    tokenEndpoint: '/token',
    clientRegistrationEndpoint: '/register',
    resourceMetadata: { resource: origin, authorization_servers: [origin] },
  });
  return provider;
}

export default {
  fetch: (request, env, ctx) => providerFor(env).fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
