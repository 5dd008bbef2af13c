// The calls-per-identity limit on `POST /calls` under `wrangler dev` (the example Worker with two
// calls per identity and a lease of 3 s): past it a 429 with Retry-After and an ErrorInfo naming
// it, another identity unaffected; a slot comes back when a call settles, when its client hangs up,
// and after a restart killed the calls that held it. (A lease whose holder died while the counter
// lived on lapses: packages/edge/src/mcp/call-limit.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../slowdown.js';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';

const leaseMs = 3000;
let worker: ExampleWorker;
beforeAll(async () => {
  worker = await startExampleWorker({
    TOOLCTX_MAX_CALLS_PER_IDENTITY: '2',
    TOOLCTX_CALL_LEASE_MS: String(leaseMs),
  });
});
afterAll(() => worker?.dev.stop());

const call = (as: string, tool: string, args: unknown, init: RequestInit = {}) =>
  worker.post('/calls', { tool, args }, { ...init, as });
/** A call that waits `ms` (60 s: until it is hung up on); answers once its headers are in: it holds its slot. */
const slow = (as: string, ms = 60_000, init: RequestInit = {}) => call(as, 'slow_wait', { ms }, init);
/** A quick call's status (and whether it succeeded). */
async function quick(as: string): Promise<{ status: number; ok?: boolean }> {
  const response = await call(as, 'count_steps', { steps: 1, delayMs: 0 });
  const body = (await response.json()) as { ok?: boolean };
  return { status: response.status, ok: body.ok };
}

async function expectCallLimit(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe('1');
  const body = (await response.json()) as { kind: string; message: string; details: unknown };
  expect(body).toMatchObject({
    kind: 'limit-exceeded',
    details: { limit: 2, option: 'maxCallsPerIdentity' },
  });
  expect(body.message).toMatch(/limit of 2 calls in flight for this identity.*maxCallsPerIdentity/);
}

describe('calls per identity under wrangler dev', () => {
  it('refuses a third call in flight with 429; another identity is not affected; a call that settles gives its slot back', async () => {
    const hanging = new AbortController();
    const held = await slow('ada', 60_000, { signal: hanging.signal });
    const settling = await slow('ada', 1500);
    expect([held.status, settling.status]).toEqual([200, 200]);
    await expectCallLimit(await call('ada', 'count_steps', { steps: 1, delayMs: 0 }));
    expect(await quick('ben')).toEqual({ status: 200, ok: true });
    // The answer comes once the slot is back: the next call is let in at once.
    expect(JSON.parse(await settling.text())).toMatchObject({ ok: true });
    expect(await quick('ada')).toEqual({ status: 200, ok: true });
    expect(await quick('ada')).toEqual({ status: 200, ok: true });
    hanging.abort();
  });

  it('gives a slot back when its client hangs up, and the identity’s calls succeed again', async () => {
    const clients = [new AbortController(), new AbortController()];
    const held = await Promise.all(clients.map((client) => slow('cleo', 60_000, { signal: client.signal })));
    expect(held.map((response) => response.status)).toEqual([200, 200]);
    await expectCallLimit(await call('cleo', 'count_steps', { steps: 1, delayMs: 0 }));
    const hungUpAt = performance.now();
    clients[0]!.abort();
    await waitUntil(async () => (await quick('cleo')).status === 200, {
      what: "a slot given back after its client hung up (cleo's next call answered 200)",
      ms: 8000,
    });
    console.log(
      `a hung-up call's slot came back ${Math.round(performance.now() - hungUpAt)} ms after the hang-up`,
    );
    expect(await quick('cleo')).toEqual({ status: 200, ok: true });
    clients[1]!.abort();
  });

  it('keeps counting calls that outlast their lease, and frees the slots of calls a restart killed', async () => {
    const clients = [new AbortController(), new AbortController()];
    const held = await Promise.all(clients.map((client) => slow('dora', 60_000, { signal: client.signal })));
    expect(held.map((response) => response.status)).toEqual([200, 200]);
    for (const response of held) void response.text().catch(() => {});
    // Past two leases: the running calls renewed theirs, so they still count.
    await new Promise((resolve) => setTimeout(resolve, 2.5 * leaseMs));
    await expectCallLimit(await call('dora', 'count_steps', { steps: 1, delayMs: 0 }));

    // The calls die with the Worker and give nothing back; the counter restarts too, and its
    // leases, kept in memory, go with it.
    const restarting = performance.now();
    await worker.dev.restart();
    const restartedAt = performance.now();
    await waitUntil(async () => (await quick('dora')).status === 200, {
      what: `the slots of calls killed by a restart free (dora's next call answered 200; lease ${leaseMs} ms)`,
      ms: leaseMs + 10_000,
    });
    console.log(
      `killed calls' slots came back ${Math.round(performance.now() - restartedAt)} ms after a restart of ${Math.round(restartedAt - restarting)} ms`,
    );
    expect(await quick('dora')).toEqual({ status: 200, ok: true });
    for (const client of clients) client.abort();
  });
});
