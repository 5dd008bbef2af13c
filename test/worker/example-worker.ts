// The example Worker users deploy (packages/edge/src/worker.ts) under `wrangler dev`, and requests
// to it as one identity or another.
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';

export const edgeDir = fileURLToPath(new URL('../../packages/edge', import.meta.url));
/** The example Worker's TOOLCTX_TOKEN in these tests: `Bearer <it>` is the principal `default`. */
export const workerToken = 'worker-test-token';
const token = workerToken;

/**
 * The bearer token of `principal`: its name and the base64url HMAC-SHA-256 of it keyed with
 * TOOLCTX_TOKEN (packages/edge/src/example/token-auth.ts). Who calls comes from the token alone.
 */
export const tokenFor = async (principal: string): Promise<string> =>
  `${principal}.${createHmac('sha256', workerToken).update(principal).digest('base64url')}`;

/** The example Worker, and `fetch` as a principal of its tenant (`as`, default `ana`). */
export interface ExampleWorker {
  dev: WranglerDev;
  send(path: string, init?: RequestInit & { as?: string }): Promise<Response>;
  post(path: string, body: unknown, init?: RequestInit & { as?: string }): Promise<Response>;
  /** Starts a run as `as` and answers its id. */
  startRun(as?: string, body?: unknown): Promise<string>;
}

/**
 * Starts the example Worker with `vars`; `options.config` runs another Worker config of the
 * package instead (one that wraps the example Worker; with `options.cwd`, a config of that
 * folder), `options.args` adds `wrangler dev` arguments, `options.stateDir` starts it on a persist
 * dir another Worker left.
 */
export async function startExampleWorker(
  vars: Record<string, string> = {},
  options: { config?: string; args?: string[]; cwd?: string; stateDir?: string } = {},
): Promise<ExampleWorker> {
  const dev = await startWranglerDev({ cwd: edgeDir, vars: { TOOLCTX_TOKEN: token, ...vars }, ...options });
  const send = async (path: string, init: RequestInit & { as?: string } = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${await tokenFor(init.as ?? 'ana')}`);
    return fetch(`${dev.url}${path}`, { ...init, headers });
  };
  const post = (path: string, body: unknown, init: RequestInit & { as?: string } = {}) => {
    const headers = new Headers(init.headers);
    headers.set('content-type', 'application/json');
    return send(path, { ...init, method: 'POST', body: JSON.stringify(body), headers });
  };
  const startRun = async (as = 'ana', body: unknown = {}) => {
    const response = await post('/runs', body, { as });
    if (response.status !== 201)
      throw new Error(`POST /runs answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { runId: string }).runId;
  };
  return { dev, send, post, startRun };
}
