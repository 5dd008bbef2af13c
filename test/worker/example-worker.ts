// The example Worker users deploy (packages/edge/src/worker.ts) under `wrangler dev`, and requests
// to it as one identity or another.
import { fileURLToPath } from 'node:url';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';

export const edgeDir = fileURLToPath(new URL('../../packages/edge', import.meta.url));
/** The bearer token the example Worker accepts in these tests. */
export const workerToken = 'worker-test-token';
const token = workerToken;

/** The example Worker, and `fetch` as a principal of its tenant (`as`, default `ana`). */
export interface ExampleWorker {
  dev: WranglerDev;
  send(path: string, init?: RequestInit & { as?: string }): Promise<Response>;
  post(path: string, body: unknown, init?: RequestInit & { as?: string }): Promise<Response>;
  /** Starts a run as `as` and answers its id. */
  startRun(as?: string, body?: unknown): Promise<string>;
}

export async function startExampleWorker(vars: Record<string, string> = {}): Promise<ExampleWorker> {
  const dev = await startWranglerDev({ cwd: edgeDir, vars: { TOOLCTX_TOKEN: token, ...vars } });
  const send = (path: string, init: RequestInit & { as?: string } = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    headers.set('x-toolctx-principal', init.as ?? 'ana');
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
