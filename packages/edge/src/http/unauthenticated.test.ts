import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ExampleWorkerEnv } from '../env.js';
import { runtime } from '../test-utils/server.js';
import worker from '../worker.js';
import { createToolServer } from './create-tool-server.js';

/** The example Worker's answer to a request, with the bindings given. */
async function workerAnswer(bindings: ExampleWorkerEnv, headers: HeadersInit = {}) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request('http://toolctx.test/tools', { headers }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: (await response.json()) as { kind: string; message: string } };
}

describe('HTTP door: a 401 says what is missing', () => {
  it('answers the message authenticate refused with, as an unauthenticated ErrorInfo', async () => {
    const app = createToolServer({
      runtimeFor: () => runtime,
      authenticate: () => ({ refused: 'Sign in at /login first.' }),
    });
    const response = await app.request('/tools');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      kind: 'unauthenticated',
      message: 'Sign in at /login first.',
      retryable: false,
    });
  });

  it('says, from the example Worker without TOOLCTX_TOKEN, that it is not set and where to set it', async () => {
    const { TOOLCTX_TOKEN: _, ...unset } = env as ExampleWorkerEnv;
    const { status, body } = await workerAnswer(unset, { authorization: 'Bearer anything' });
    expect(status).toBe(401);
    expect(body.kind).toBe('unauthenticated');
    expect(body.message).toContain('TOOLCTX_TOKEN is not set for this Worker');
    expect(body.message).toContain('.dev.vars');
    expect(body.message).toContain('wrangler secret put TOOLCTX_TOKEN');
  });

  it('tells a caller with the wrong token what to send, without the Worker’s token in the answer', async () => {
    const bindings = { ...(env as ExampleWorkerEnv), TOOLCTX_TOKEN: 'the-real-secret' };
    const attempts: HeadersInit[] = [
      {},
      { authorization: 'Bearer guess' },
      { authorization: 'the-real-secret' },
    ];
    for (const headers of attempts) {
      const { status, body } = await workerAnswer(bindings, headers);
      expect(status).toBe(401);
      expect(body.message).toContain('Authorization: Bearer <token>');
      expect(body.message).toContain('TOOLCTX_TOKEN');
      expect(JSON.stringify(body)).not.toContain('the-real-secret');
    }
  });
});
