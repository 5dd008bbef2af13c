// Test helpers: requests to the deployable Worker (src/worker.ts) inside the vitest pool, as one
// principal or another, and its run objects.
import { env, exports } from 'cloudflare:workers';
import { expect } from 'vitest';

/** The Worker's TOOLCTX_TOKEN in these tests (vitest.config.ts). */
export const testSecret = 'test-token';

/**
 * The example Worker's bearer token of `principal`: its name and the base64url HMAC-SHA-256 of
 * it keyed with the Worker's TOOLCTX_TOKEN, as src/worker.ts documents.
 */
export async function tokenFor(principal: string, secret = testSecret): Promise<string> {
  const utf8 = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    utf8.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8.encode(principal)));
  const base64url = btoa(String.fromCharCode(...mac))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `${principal}.${base64url}`;
}

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
