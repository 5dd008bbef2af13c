import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { principalToken } from '../example/token-auth.js';
import { createToolServer } from '../index.js';
import { takeCallSlot } from '../run-host/call-slots.js';
import type { IdentityStateObject } from '../run-host/identity-state.js';
import { authenticate, runtime } from '../test-utils/server.js';

// `callLimit` on POST /calls, counted by the IDENTITY_STATE object of the edge package's wrangler.jsonc.
const identityState = (env as unknown as { IDENTITY_STATE: DurableObjectNamespace<IdentityStateObject> })
  .IDENTITY_STATE;

/**
 * The Worker's env with each call slot's release held back `ms` on its way to the counter, so an
 * answer that went out before its slot was back is seen as such.
 */
function slowReleases(ms: number) {
  const stubOf = (stub: DurableObjectStub<IdentityStateObject>) =>
    new Proxy(stub, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (key !== 'release') return value;
        return async (...args: Parameters<IdentityStateObject['release']>) => {
          await new Promise((resolve) => setTimeout(resolve, ms));
          // Called on the stub: an RPC method applied with another `this` sends that along.
          return target.release(...args);
        };
      },
    });
  const namespace = new Proxy(identityState, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key !== 'get') return value.bind(target);
      return (id: DurableObjectId) => stubOf(target.get(id));
    },
  });
  return { ...env, IDENTITY_STATE: namespace };
}

function cappedServer(maxCallsPerIdentity: number, tenant: string, bindings: object = env) {
  // A tenant per test: each test's identities are counted apart from the others'.
  const app = createToolServer({
    runtimeFor: () => runtime,
    authenticate: (request) => {
      const identity = authenticate(request);
      return identity && { ...identity, tenant };
    },
    callLimit: { binding: 'IDENTITY_STATE', maxCallsPerIdentity },
  });
  const call = (as: string, tool: string, args: unknown, init: RequestInit = {}) =>
    app.request(
      '/calls',
      {
        ...init,
        method: 'POST',
        headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json', ...init.headers },
        body: JSON.stringify({ tool, args }),
      },
      bindings,
    );
  /** The calls `principal` has in flight, as its counter holds them. */
  const live = async (principal: string) => {
    const stub = identityState.get(identityState.idFromName(JSON.stringify([tenant, principal])));
    const taken = await stub.acquire('probe', 1_000, 'call');
    await stub.release('probe', 'call');
    return taken.ok ? taken.value.live - 1 : -1;
  };
  return { call, live };
}

async function expectCallLimit(response: Response, limit: number): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe('1');
  const body = (await response.json()) as {
    kind: string;
    message: string;
    retryable: boolean;
    details: unknown;
  };
  expect(body).toMatchObject({
    kind: 'limit-exceeded',
    retryable: true,
    details: { limit, option: 'maxCallsPerIdentity' },
  });
  expect(body.message).toMatch(
    new RegExp(`limit of ${limit} calls in flight for this identity.*maxCallsPerIdentity`),
  );
}

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const quick = { steps: 1, delayMs: 0 };

describe('HTTP door: POST /calls with callLimit', () => {
  it('refuses an identity’s call past its limit with 429, Retry-After and an ErrorInfo naming the limit; another identity is unaffected', async () => {
    const { call, live } = cappedServer(2, 'fair-1');
    const held = [
      await call('ana', 'slow_wait', { ms: 60_000 }),
      await call('ana', 'slow_wait', { ms: 60_000 }, { headers: { accept: 'text/event-stream' } }),
    ];
    expect(held.map((response) => response.status)).toEqual([200, 200]);
    expect(await live('ana')).toBe(2);
    await expectCallLimit(await call('ana', 'count_steps', quick), 2);
    await expectCallLimit(
      await call('ana', 'slow_wait', { ms: 1 }, { headers: { accept: 'text/event-stream' } }),
      2,
    );
    const bob = await call('bob', 'count_steps', quick);
    expect(bob.status).toBe(200);
    expect(await bob.json()).toMatchObject({ ok: true, value: { steps: 1 } });
    expect(await live('bob')).toBe(0);
    // The refusals took nothing: ana still holds two.
    expect(await live('ana')).toBe(2);
    for (const response of held) await response.body?.cancel();
  });

  it('gives a slot back when a call settles, whether it succeeded or failed, before its answer arrives', async () => {
    // Each release takes 300 ms to reach the counter, and the answer still finds it done.
    const { call, live } = cappedServer(1, 'fair-2', slowReleases(300));
    for (const [tool, args] of [
      ['count_steps', quick],
      ['always_fails', {}],
      ['slow_wait', { ms: 30 }],
      ['count_steps', { steps: 2, delayMs: 1 }],
    ] as const) {
      const response = await call('ana', tool, args);
      expect(response.status).toBe(200);
      await response.text();
      // The answer is in: the slot is back already, so the next call at the limit of 1 is let in.
      expect(await live('ana')).toBe(0);
    }
    const sse = await call('ana', 'count_steps', quick, { headers: { accept: 'text/event-stream' } });
    expect(await sse.text()).toContain('event: result');
    expect(await live('ana')).toBe(0);
  });

  it('gives a slot back when the client hangs up (JSON and SSE), and the identity’s calls then succeed', async () => {
    const { call, live } = cappedServer(2, 'fair-3');
    const json = await call('ana', 'slow_wait', { ms: 60_000 });
    const sse = await call('ana', 'slow_wait', { ms: 60_000 }, { headers: { accept: 'text/event-stream' } });
    expect(await live('ana')).toBe(2);
    await expectCallLimit(await call('ana', 'count_steps', quick), 2);
    await json.body?.cancel();
    await sse.body?.cancel();
    // The next heartbeat write fails, the call is aborted and settles, and its slot comes back.
    await until(async () => (await live('ana')) === 0);
    for (let i = 0; i < 3; i++) {
      const again = await call('ana', 'count_steps', quick);
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ ok: true });
    }
  });

  it('takes no slot for a call refused before it runs: an unknown tool, a malformed body', async () => {
    const { call, live } = cappedServer(1, 'fair-4');
    expect((await call('ana', 'no_such_tool', {})).status).toBe(404);
    const malformed = await call('ana', 'count_steps', { steps: 'many' });
    await malformed.text();
    expect(await live('ana')).toBe(0);
  });

  it('names the binding and the fix when callLimit names no Durable Object namespace', async () => {
    const { call } = cappedServer(2, 'fair-5');
    expect((await call('ana', 'count_steps', quick)).status).toBe(200);
    await expect(takeCallSlot({ binding: 'NOT_BOUND' }, env, { tenant: 'fair-5' })).rejects.toThrow(
      /callLimit: env\.NOT_BOUND is not a Durable Object namespace\. Bind your IdentityStateObject subclass/,
    );
  });
});

describe('the example Worker: callLimit by default', () => {
  it('lets an identity hold 16 one-shot calls at once and refuses the 17th, naming 16', async () => {
    const headers = {
      authorization: `Bearer ${await principalToken('test-token', 'sixteen')}`,
      'content-type': 'application/json',
    };
    const call = (ms: number) =>
      SELF.fetch('http://toolctx.test/calls', {
        method: 'POST',
        headers,
        body: JSON.stringify({ tool: 'slow_wait', args: { ms } }),
      });
    const held = await Promise.all(Array.from({ length: 16 }, () => call(60_000)));
    expect(held.map((response) => response.status)).toEqual(held.map(() => 200));
    await expectCallLimit(await call(1), 16);
    for (const response of held) await response.body?.cancel();
  });
});
