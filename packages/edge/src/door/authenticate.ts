import type { Identity } from '@toolctx/core';

/**
 * Establishes who is calling, from the request (a token, a cookie, mTLS), the Worker's `env` (where
 * a secret or a verification key is kept) and the request's `ExecutionContext` when it has one
 * (its `props`, where an OAuth wrapper such as `@cloudflare/workers-oauth-provider` puts the
 * grant's user; `undefined` in a test that calls the app without one). `null` is a 401
 * whose message says `authenticate` found no identity; `{ refused: message }` is a 401 with that
 * message, for naming what the caller (or the host's configuration) lacks. The message goes to
 * the caller: say what is missing, never what the secret is.
 *
 * @example
 * ```ts
 * import type { Authenticate, ExampleWorkerEnv } from '@toolctx/edge';
 * const authenticate: Authenticate<ExampleWorkerEnv> = (request, env) => {
 *   if (!env.TOOLCTX_TOKEN) return { refused: 'TOOLCTX_TOKEN is not set for this Worker.' };
 *   return request.headers.get('authorization') === `Bearer ${env.TOOLCTX_TOKEN}` ? { tenant: 'acme' } : null;
 * };
 * ```
 */
export type Authenticate<E> = (
  request: Request,
  env: E,
  ctx?: ExecutionContext,
) => AuthAnswer | Promise<AuthAnswer>;

/**
 * What {@link Authenticate} answers: who is calling, or a refusal (a 401), with a message of
 * the host's or the door's default.
 */
export type AuthAnswer = Identity | { refused: string } | null;
