import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExampleWorkerEnv } from './env.js';
import { startRun, testSecret, tokenFor } from './test-utils/worker.js';
import worker from './worker.js';

// The example Worker (src/worker.ts): who calls comes from the token alone, compared in constant
// time; the Host names it answers come from TOOLCTX_ALLOWED_HOSTS.

/** The example Worker's answer, with the bindings given (the test bindings by default). */
async function answer(path: string, init: RequestInit = {}, bindings: Partial<ExampleWorkerEnv> = {}) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`http://toolctx.test${path}`, init),
    { ...(env as ExampleWorkerEnv), ...bindings },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}
const bearer = (token: string, headers: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${token}`, ...headers },
});

afterEach(() => vi.restoreAllMocks());

describe('the example Worker: identity from the token', () => {
  it('ignores a client-sent x-toolctx-principal: the token alone says who calls', async () => {
    const runId = await startRun('ana');
    const events = `/runs/${runId}/events?after=0`;
    const bob = await tokenFor('bob');
    // bob's token naming ana in the old header is still bob, a stranger to ana's run.
    expect((await answer(events, bearer(bob, { 'x-toolctx-principal': 'ana' }))).status).toBe(404);
    // ana's token naming bob is still ana.
    const ana = await answer(events, bearer(await tokenFor('ana'), { 'x-toolctx-principal': 'bob' }));
    expect(ana.status).toBe(200);
    await ana.body?.cancel();
    // The bare secret is the principal `default`, whatever the header says.
    expect((await answer(events, bearer(testSecret, { 'x-toolctx-principal': 'ana' }))).status).toBe(404);
  });

  it('takes the bare TOOLCTX_TOKEN as the principal default, and a principal’s token as that principal', async () => {
    const started = await answer('/runs', {
      method: 'POST',
      ...bearer(testSecret, { 'content-type': 'application/json' }),
      body: '{}',
    });
    expect(started.status).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    const events = `/runs/${runId}/events?after=0`;
    const asDefault = await answer(events, bearer(await tokenFor('default')));
    expect(asDefault.status).toBe(200);
    await asDefault.body?.cancel();
    expect((await answer(events, bearer(await tokenFor('ana')))).status).toBe(404);
  });

  it('refuses a token signed with another secret, a changed or cut signature, and a signature moved to another name', async () => {
    const ana = await tokenFor('ana');
    const signature = ana.slice('ana.'.length);
    const forged = [
      await tokenFor('ana', 'another-secret'),
      `ana.${signature.slice(0, -1)}`,
      `ana.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `bob.${signature}`,
      `ana.${signature}.`,
      'ana.',
      `.${signature}`,
      `${testSecret}x`,
    ];
    for (const token of forged) {
      const response = await answer('/tools', bearer(token));
      expect(response.status, token).toBe(401);
      expect(((await response.json()) as { message: string }).message).toContain(
        'Authorization: Bearer <token>',
      );
    }
    expect((await answer('/tools', bearer(ana))).status).toBe(200);
  });

  it('takes a TOOLCTX_TOKEN with dots in it, bare or signing a principal’s token', async () => {
    const dotted = { TOOLCTX_TOKEN: 'a.secret.with.dots' };
    expect((await answer('/tools', bearer('a.secret.with.dots'), dotted)).status).toBe(200);
    expect((await answer('/tools', bearer(await tokenFor('ana', 'a.secret.with.dots')), dotted)).status).toBe(
      200,
    );
    expect((await answer('/tools', bearer(await tokenFor('ana')), dotted)).status).toBe(401);
  });

  it('compares tokens as SHA-256 digests with crypto.subtle.timingSafeEqual', async () => {
    const compare = vi.spyOn(
      crypto.subtle as SubtleCrypto & {
        timingSafeEqual: (a: ArrayBufferView, b: ArrayBufferView) => boolean;
      },
      'timingSafeEqual',
    );
    expect((await answer('/tools', bearer('guess'))).status).toBe(401);
    expect((await answer('/tools', bearer(await tokenFor('ana')))).status).toBe(200);
    // guess: not the secret (and no name in it); ana's token: not the secret, then ana's.
    expect(compare.mock.results.map((result) => result.value)).toEqual([false, false, true]);
    for (const [a, b] of compare.mock.calls) {
      expect([a.byteLength, b.byteLength]).toEqual([32, 32]);
    }
  });

  it('no longer lets pages send x-toolctx-principal: its CORS allows only the door’s own headers', async () => {
    const origin = 'https://app.example.com';
    const response = await answer(
      '/runs',
      {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      },
      { TOOLCTX_ALLOWED_ORIGINS: origin },
    );
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization,content-type,last-event-id,accept,prefer',
    );
  });
});

describe('the example Worker: the hosts it answers', () => {
  it('answers the loopback names by default and refuses another Host with a 421', async () => {
    const auth = bearer(await tokenFor('ana'));
    expect((await answer('/tools', { headers: { ...auth.headers, host: '127.0.0.1:8787' } })).status).toBe(
      200,
    );
    const refused = await answer('/tools', { headers: { ...auth.headers, host: 'evil.example' } });
    expect(refused.status).toBe(421);
    expect(((await refused.json()) as { kind: string }).kind).toBe('misdirected-request');
  });

  it('answers the names in TOOLCTX_ALLOWED_HOSTS instead', async () => {
    const auth = bearer(await tokenFor('ana'));
    const hosts = { TOOLCTX_ALLOWED_HOSTS: 'toolctx.example.workers.dev, tools.example.com' };
    const at = (host: string) => answer('/tools', { headers: { ...auth.headers, host } }, hosts);
    expect((await at('tools.example.com')).status).toBe(200);
    expect((await at('toolctx.example.workers.dev')).status).toBe(200);
    expect((await at('127.0.0.1:8787')).status).toBe(421);
  });
});
