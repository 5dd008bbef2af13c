import { env, runInDurableObject, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { IdentityStateObject } from '../run-host/identity-state.js';
import { base, callTool, liveCallSlots, messagesOf, openSession, rpc, until } from '../test-utils/mcp.js';

// `callLimit` on /mcp-calls-capped (src/mcp/test-worker.ts): at most two calls in flight per
// identity, across its sessions. `wait_for_abort` runs until it is cancelled.
const at = 'http://toolctx.test/mcp-calls-capped';
const as = (principal: string) => ({ authorization: `Bearer ${principal}` });

const post = (principal: string, session: string, body: string, init: RequestInit = {}) =>
  SELF.fetch(at, {
    ...init,
    method: 'POST',
    headers: { ...base, ...as(principal), 'mcp-session-id': session },
    body,
  });

/** Starts `wait_for_abort` as request `id`; answers once the call holds its slot (the headers are in). */
async function hold(principal: string, session: string, id: string, init: RequestInit = {}) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'wait_for_abort', arguments: { id }, _meta: { progressToken: id } },
  });
  const response = await post(principal, session, body, init);
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  await reader.read(); // the priming event or the first progress report: the call runs
  return reader;
}

/** `add` as one call: its status, and its sum when answered. */
async function add(principal: string, session: string, id = 1) {
  const response = await post(
    principal,
    session,
    rpc('tools/call', { name: 'add', arguments: { a: 1, b: 2 } }, id),
  );
  const text = await response.text();
  return { response, text, sum: /"sum":3/.test(text) };
}

describe('the MCP door with callLimit', () => {
  it('refuses a call past an identity’s limit, across its sessions, with 429, Retry-After and a JSON-RPC error naming the limit; another identity and the session carry on', async () => {
    const first = await openSession(at, as('ana'));
    const second = await openSession(at, as('ana'));
    const held = [await hold('ana', first, 'a1'), await hold('ana', second, 'a2')];
    expect(await liveCallSlots('ana')).toBe(2);

    const refused = await post('ana', first, callTool('add', { a: 1, b: 2 }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringMatching(/limit of 2 calls in flight for this identity.*`maxCallsPerIdentity`/),
        data: { limit: 2, option: 'maxCallsPerIdentity' },
      },
      id: 1,
    });
    // Not a call: the session answers.
    const listed = await post('ana', first, rpc('tools/list', undefined, 2));
    expect(listed.status).toBe(200);
    await listed.text();
    // Another identity is counted apart.
    const bob = await openSession(at, as('bob'));
    expect((await add('bob', bob)).sum).toBe(true);
    expect(await liveCallSlots('bob')).toBe(0);
    for (const reader of held) await reader.cancel();
  });

  it('gives a slot back when a call is answered and when it is cancelled; a call whose client drops its stream goes on and holds its slot until its answer, which a resume reads', async () => {
    const session = await openSession(at, as('cat'));
    // Answered: sequential calls, each finding its slot back.
    for (let id = 1; id <= 4; id++) expect((await add('cat', session, id)).sum).toBe(true);
    expect(await liveCallSlots('cat')).toBe(0);

    const cancelled = await hold('cat', session, 'c1');
    // A call that ends by itself after 10 steps of 150 ms, whose client drops its stream at once:
    // the call goes on, holding its slot.
    const stepping = await post(
      'cat',
      session,
      rpc(
        'tools/call',
        { name: 'steps', arguments: { count: 10, ms: 150 }, _meta: { progressToken: 'c2' } },
        'c2',
      ),
    );
    const dropped = stepping.body!.pipeThrough(new TextDecoderStream()).getReader();
    const primingId = (await dropped.read()).value?.match(/^id: (\d+)$/m)?.[1];
    expect(primingId).toBeDefined();
    await dropped.cancel();
    expect(await liveCallSlots('cat')).toBe(2);
    expect((await add('cat', session, 10)).response.status).toBe(429);

    // notifications/cancelled: the SDK answers nothing, the slot comes back with the cancel.
    const cancel = await post(
      'cat',
      session,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1' } }),
    );
    expect(cancel.status).toBe(202);
    await cancel.text();
    expect((await add('cat', session, 11)).sum).toBe(true);

    // The dropped call's slot comes back at its answer, which a resume of its stream reads.
    await until(async () => (await liveCallSlots('cat')) === 0);
    const resumed = await SELF.fetch(at, {
      headers: { ...base, ...as('cat'), 'mcp-session-id': session, 'last-event-id': primingId! },
    });
    expect(messagesOf(await resumed.text(), resumed.headers.get('content-type')).at(-1)).toMatchObject({
      id: 'c2',
      result: { content: [{ type: 'text', text: '10 steps done' }] },
    });
    expect((await add('cat', session, 12)).sum).toBe(true);
    expect((await add('cat', session, 13)).sum).toBe(true);
    await cancelled.cancel();
  });

  it('gives back the slots of calls still running when their session is closed', async () => {
    const session = await openSession(at, as('dan'));
    const held = [await hold('dan', session, 'd1'), await hold('dan', session, 'd2')];
    expect(await liveCallSlots('dan')).toBe(2);
    const closed = await SELF.fetch(at, {
      method: 'DELETE',
      headers: { ...base, ...as('dan'), 'mcp-session-id': session },
    });
    expect(closed.status).toBe(200);
    await until(async () => (await liveCallSlots('dan')) === 0);
    for (const reader of held) await reader.cancel().catch(() => {});
  });

  it('ignores a call-slot header a client sends: only the Worker says whether and where calls are counted', async () => {
    // /mcp-auth counts no calls, whatever the client claims; a forged limit of 0 would refuse every call.
    const forged = {
      'x-toolctx-call-slots': JSON.stringify({ binding: 'IDENTITY_STATE', maxCallsPerIdentity: 0 }),
    };
    const open = 'http://toolctx.test/mcp-auth';
    const session = await openSession(open, as('eve'));
    const response = await SELF.fetch(open, {
      method: 'POST',
      headers: { ...base, ...as('eve'), ...forged, 'mcp-session-id': session },
      body: callTool('add', { a: 1, b: 2 }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"sum":3');
    // On the capped route, the Worker's own limit (2) holds: a forged 0 refuses nothing.
    const capped = await openSession(at, as('eve'));
    const answered = await SELF.fetch(at, {
      method: 'POST',
      headers: { ...base, ...as('eve'), ...forged, 'mcp-session-id': capped },
      body: callTool('add', { a: 1, b: 2 }),
    });
    expect(answered.status).toBe(200);
    await answered.text();
  });
});

describe('IdentityStateObject call leases', () => {
  const runs = (env as unknown as { IDENTITY_STATE: DurableObjectNamespace<IdentityStateObject> })
    .IDENTITY_STATE;
  const counter = (name: string) => runs.get(runs.idFromName(JSON.stringify(['acme', name])));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('stops counting a slot whose holder never renews it (a crashed isolate), and keeps nothing in storage', async () => {
    const stub = counter('crashed');
    expect((await stub.acquire('lost-1', 2, 'call', 200)).ok).toBe(true);
    expect((await stub.acquire('lost-2', 2, 'call', 200)).ok).toBe(true);
    const full = await stub.acquire('next', 2, 'call', 200);
    expect(full).toMatchObject({ ok: false, status: 429, retryAfter: 1 });
    // Calls cost the object no write: nothing stored, no alarm to bill.
    const stored = await runInDurableObject(stub, async (_object, state) => ({
      keys: [...state.storage.kv.list()].length,
      alarm: await state.storage.getAlarm(),
    }));
    expect(stored).toEqual({ keys: 0, alarm: null });
    await sleep(300);
    expect(await stub.acquire('after-1', 2, 'call', 200)).toMatchObject({ ok: true, value: { live: 1 } });
    expect((await stub.acquire('after-2', 2, 'call', 200)).ok).toBe(true);
  });

  it('counts a slot whose holder renews it past its first lease, and one that comes back with a renewal after the object lost it', async () => {
    const stub = counter('renewed');
    expect((await stub.acquire('running', 1, 'call', 200)).ok).toBe(true);
    for (let i = 0; i < 4; i++) {
      await sleep(80);
      expect(await stub.renew('running', 200)).toBe(true);
    }
    // 320 ms after it was taken, past its first lease of 200 ms: still held.
    expect((await stub.acquire('next', 1, 'call', 200)).ok).toBe(false);
    // What a restart of the object leaves: no lease in memory. The holder's renewal puts it back.
    await runInDurableObject(stub, (instance) => {
      (instance as unknown as { leases: Map<string, number> }).leases.clear();
    });
    expect(await stub.renew('running', 200)).toBe(false);
    expect((await stub.acquire('next', 1, 'call', 200)).ok).toBe(false);
    await stub.release('running', 'call');
    expect((await stub.acquire('next', 1, 'call', 200)).ok).toBe(true);
    await stub.release('next', 'call');
  });

  it('keeps call slots apart from runs and sessions: a run slot is not a call, nor freed by a call’s lapse', async () => {
    const stub = counter('mixed');
    expect((await stub.acquire('run-1', 1)).ok).toBe(true);
    expect((await stub.acquire('call-1', 1, 'call', 100)).ok).toBe(true);
    await sleep(150);
    expect((await stub.acquire('run-2', 1)).ok).toBe(false);
    expect((await stub.acquire('call-2', 1, 'call', 100)).ok).toBe(true);
    await stub.release('call-2', 'call');
    await stub.release('run-1');
    expect(await runInDurableObject(stub, (_object, state) => [...state.storage.kv.list()].length)).toBe(0);
  });
});
