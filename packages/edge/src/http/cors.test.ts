import type { Identity } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { memoryServer, runtime } from '../test-utils/server.js';
import { allMessages } from '../test-utils/sse.js';
import { createToolServer } from './create-tool-server.js';

const page = 'https://app.example.com';
const elsewhere = 'https://evil.example.net';

/** A door whose pages on `page` may call it, counting how often `authenticate` runs. */
function corsServer() {
  let authentications = 0;
  const app = createToolServer({
    runtimeFor: () => runtime,
    cors: { origins: [page], allowHeaders: ['x-user'] },
    authenticate: (request): Identity | null => {
      authentications += 1;
      return request.headers.get('authorization') === 'Bearer ana'
        ? { tenant: 'acme', principal: 'ana' }
        : null;
    },
  });
  const send = (path: string, init: RequestInit = {}) => app.request(path, init);
  return { send, authentications: () => authentications };
}

const preflight = (origin: string, method = 'POST') => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'authorization, content-type, last-event-id',
  },
});

describe('HTTP door: CORS for pages on other origins', () => {
  it('answers a preflight from an allowed origin without a token and without calling authenticate', async () => {
    const { send, authentications } = corsServer();
    const response = await send('/runs', preflight(page));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(page);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization,content-type,last-event-id,accept,prefer,x-user',
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('vary')).toContain('Origin');
    expect(authentications()).toBe(0);
  });

  it('gives a disallowed origin no Access-Control-Allow-Origin, on a preflight or a real request', async () => {
    const { send } = corsServer();
    const refused = await send('/runs', preflight(elsewhere));
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const real = await send('/tools', { headers: { origin: elsewhere, authorization: 'Bearer ana' } });
    expect(real.status).toBe(200);
    expect(real.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('adds the headers to an allowed origin’s JSON answers and exposes what the browser client reads', async () => {
    const { send } = corsServer();
    const response = await send('/runs', {
      method: 'POST',
      headers: { origin: page, authorization: 'Bearer ana' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('access-control-allow-origin')).toBe(page);
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'x-toolctx-call-id,retry-after,location,content-location,preference-applied,www-authenticate',
    );
    expect(response.headers.get('vary')).toContain('Origin');
    expect(response.headers.get('location')).toMatch(/^\/runs\/run_/);
  });

  it('adds the headers to an SSE call’s stream and to the run’s event stream', async () => {
    const { send } = corsServer();
    const auth = { origin: page, authorization: 'Bearer ana' };
    const started = await send('/runs', { method: 'POST', headers: auth });
    const { runId } = (await started.json()) as { runId: string };
    const call = await send(`/runs/${runId}/calls`, {
      method: 'POST',
      headers: { ...auth, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'count_steps', args: { steps: 1, delayMs: 0 } }),
    });
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    expect(call.headers.get('access-control-allow-origin')).toBe(page);
    expect(call.headers.get('x-toolctx-call-id')).toMatch(/^call_/);
    expect((await allMessages(call)).at(-1)?.event).toBe('result');
    await send(`/runs/${runId}`, { method: 'DELETE', headers: auth });
    const events = await send(`/runs/${runId}/events`, { headers: { ...auth, accept: 'text/event-stream' } });
    expect(events.headers.get('access-control-allow-origin')).toBe(page);
    expect((await allMessages(events)).at(-1)?.event).toBe('run.finished');
  });

  it('adds the headers to a 401, so the page can read why it was refused', async () => {
    const { send } = corsServer();
    const response = await send('/tools', { headers: { origin: page } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(page);
    expect(await response.json()).toMatchObject({ kind: 'unauthenticated', retryable: false });
  });

  it('adds the headers to errors of a route, such as a 404 for an unknown run', async () => {
    const { send } = corsServer();
    const response = await send('/runs/run_nope/events', {
      headers: { origin: page, authorization: 'Bearer ana' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe(page);
  });

  it('reads origins from the bindings when cors is a function of env, and sends none when it answers undefined', async () => {
    const app = createToolServer<{ ORIGINS?: string }>({
      runtimeFor: () => runtime,
      cors: (env) => (env.ORIGINS ? { origins: env.ORIGINS.split(',') } : undefined),
      authenticate: () => ({ tenant: 'acme' }),
    });
    const allowed = await app.request(
      '/tools',
      { headers: { origin: page } },
      { ORIGINS: `${page},${elsewhere}` },
    );
    expect(allowed.headers.get('access-control-allow-origin')).toBe(page);
    const none = await app.request('/tools', { headers: { origin: page } }, {});
    expect(none.status).toBe(200);
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends no CORS headers by default, and a preflight is then refused like any request without identity', async () => {
    const { send } = memoryServer();
    const response = await send('/tools', { headers: { origin: page } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const { app } = memoryServer();
    const preflightAnswer = await app.request('/runs', preflight(page));
    expect(preflightAnswer.status).toBe(401);
    expect(preflightAnswer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
