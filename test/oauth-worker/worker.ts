// Both doors behind @cloudflare/workers-oauth-provider, as packages/edge/README.md's OAuth quick
// start shows them (test only; test/worker/oauth.test.ts runs the whole flow against it under
// `wrangler dev`). The provider serves the metadata, client registration and the token endpoint,
// checks each token on the doors' routes, and hands the grant's props to the app as ctx.props;
// `authenticate` takes the principal from there. Its consent page is the one thing a real Worker
// writes differently: this one signs nobody in and approves as the user named in `?user=`.
import { AuthorizationError, type OAuthHelpers, OAuthProvider } from '@cloudflare/workers-oauth-provider';
import { createRuntime, defineTool } from '@toolctx/core';
import { type Authenticate, createKvR2ArtifactStore, createToolServer, mountMcp } from '@toolctx/edge';
import { createMcpSession } from '@toolctx/edge/durable-objects';
import { z } from 'zod';

type Env = {
  OAUTH_KV: KVNamespace;
  /** Put there by the provider for the consent page. */
  OAUTH_PROVIDER: OAuthHelpers;
  MCP_SESSIONS: DurableObjectNamespace<OAuthMcpSession>;
  ARTIFACT_META: KVNamespace;
  ARTIFACTS: R2Bucket;
  /** Where the Worker is reached (`https://tools.example.com`; the test's loopback URL): the tokens' audience. */
  PUBLIC_ORIGIN: string;
};

const whoami = defineTool({
  name: 'whoami',
  description: 'Says who is calling, as the host established it.',
  inputSchema: z.object({}),
  execute: async (_args, ctx) => ({ principal: ctx.identity?.principal ?? null }),
});

const saveNote = defineTool({
  name: 'save_note',
  description: "Saves a note as an artifact in the caller's own scope and answers its ref.",
  inputSchema: z.object({ text: z.string().max(1000) }),
  effect: 'write',
  execute: async ({ text }, ctx) => ({ ref: (await ctx.artifacts.put({ kind: 'note', data: text })).ref }),
});

const runtimeFor = (env: Env) =>
  createRuntime({
    tools: [whoami, saveNote],
    artifacts: createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }),
  });

export class OAuthMcpSession extends createMcpSession<Env>(runtimeFor) {}

// The provider let the request through with a valid token, and put the grant's props in ctx.props.
const authenticate: Authenticate<Env> = (_request, _env, ctx) => {
  const { user } = (ctx?.props ?? {}) as { user?: unknown };
  return typeof user === 'string' ? { tenant: 'oauth', principal: user } : null;
};

const app = createToolServer<Env>({ runtimeFor, authenticate });
mountMcp(app, { binding: 'MCP_SESSIONS', authenticate });

// A real consent page signs the person in and asks them; this one approves as `?user=`.
const consent: ExportedHandler<Env> = {
  async fetch(request, env) {
    const user = new URL(request.url).searchParams.get('user');
    if (new URL(request.url).pathname !== '/authorize' || !user)
      return new Response('Not found', { status: 404 });
    const authRequest = await env.OAUTH_PROVIDER.parseAuthRequest(request).catch(refused);
    if (authRequest instanceof Response) return authRequest;
    const { redirectTo } = await env.OAUTH_PROVIDER.completeAuthorization({
      request: authRequest,
      userId: user,
      metadata: {},
      scope: authRequest.scope,
      props: { user },
    });
    return Response.redirect(redirectTo, 302);
  },
};

/** A request the provider refused (a resource not this Worker's, an unknown client): back to the client when that is safe. */
function refused(error: unknown): Response {
  if (!(error instanceof AuthorizationError)) throw error;
  if (error.redirectTo) return Response.redirect(error.redirectTo, 302);
  return new Response(`${error.code}: ${error.description}`, { status: 400 });
}

// One provider per origin: the resource (the tokens' audience) is fixed when it is made.
const providers = new Map<string, OAuthProvider<Env>>();
function providerFor(env: Env): OAuthProvider<Env> {
  let provider = providers.get(env.PUBLIC_ORIGIN);
  if (!provider) {
    provider = new OAuthProvider<Env>({
      // The doors' routes need a token; the provider answers their 401 with its challenge.
      apiRoute: ['/mcp', '/tools', '/runs', '/calls', '/approvals', '/artifacts'],
      apiHandler: app,
      defaultHandler: consent,
      authorizeEndpoint: '/authorize',
      tokenEndpoint: '/token',
      clientRegistrationEndpoint: '/register',
      resourceMetadata: { resource: env.PUBLIC_ORIGIN, authorization_servers: [env.PUBLIC_ORIGIN] },
    });
    providers.set(env.PUBLIC_ORIGIN, provider);
  }
  return provider;
}

export default {
  fetch: (request, env, ctx) => providerFor(env).fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
