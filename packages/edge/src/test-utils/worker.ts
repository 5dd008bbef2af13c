// Test helpers: requests to the deployable Worker (src/worker.ts) inside the vitest pool, as one
// principal or another, and its run objects.
import { env, exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { principalToken } from '../example/token-auth.js';

/** The Worker's TOOLCTX_TOKEN in these tests (vitest.config.ts). */
export const testSecret = 'test-token';

/** The example Worker's bearer token of `principal` (src/example/token-auth.ts). */
export const tokenFor = (principal: string, secret = testSecret): Promise<string> =>
  principalToken(secret, principal);

/** A request to the Worker with the token of principal `as` (default `ana`). */
export async function send(path: string, init: RequestInit & { as?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${await tokenFor(init.as ?? 'ana')}`);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  return exports.default.fetch(new Request(`http://toolctx.test${path}`, { ...init, headers }));
}

export const post = (path: string, body: unknown, init: RequestInit & { as?: string } = {}) =>
  send(path, { ...init, method: 'POST', body: JSON.stringify(body) });

/** Starts a run as `as` and answers its id. */
export async function startRun(as = 'ana', body: unknown = { sessionId: 'sess-1' }): Promise<string> {
  const response = await post('/runs', body, { as });
  expect(response.status).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

/** The run's Durable Object. */
export const hostOf = (runId: string) => env.RUNS.get(env.RUNS.idFromName(runId));
