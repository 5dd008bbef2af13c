import { env, runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { IdentityStateObject } from '../run-host/identity-state.js';
import { base, openSession, rpc } from '../test-utils/mcp.js';
import { mcpFetch } from './mount-mcp.js';

// `sessionLimit` on /mcp-capped (src/mcp/test-worker.ts): at most two sessions per identity.
const at = 'http://toolctx.test/mcp-capped';
const as = (principal: string) => ({ authorization: `Bearer ${principal}` });
const initialize = rpc('initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'capped', version: '1' },
});

async function live(principal: string): Promise<number> {
  const response = await SELF.fetch(`http://toolctx.test/test/session-slots?principal=${principal}`);
  return ((await response.json()) as { live: number }).live;
}

/** The live sessions counted for an identity of no tenant and no principal, as anonymous would be if it were. */
async function liveNobody(): Promise<number> {
  const runs = (env as unknown as { IDENTITY_STATE: DurableObjectNamespace<IdentityStateObject> })
    .IDENTITY_STATE;
  const stub = runs.get(runs.idFromName(JSON.stringify(['', ''])));
  const taken = await stub.acquire('probe', 1_000, 'mcp-session');
  await stub.release('probe', 'mcp-session');
  return taken.ok ? taken.value.live - 1 : -1;
}

async function close(principal: string, session: string): Promise<number> {
  const response = await SELF.fetch(at, {
    method: 'DELETE',
    headers: { ...base, ...as(principal), 'mcp-session-id': session },
  });
  await response.text();
  return response.status;
}

describe('the MCP door with sessionLimit', () => {
  it('refuses an identity’s third session with a 429 naming the limit, while another identity and the open sessions carry on', async () => {
    const first = await openSession(at, as('ana'));
    await openSession(at, as('ana'));
    const refused = await SELF.fetch(at, {
      method: 'POST',
      headers: { ...base, ...as('ana') },
      body: initialize,
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.has('mcp-session-id')).toBe(false);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringMatching(
          /limit of 2 live MCP sessions for this identity .*maxSessionsPerIdentity/,
        ),
      },
      id: null,
    });
    expect(await live('ana')).toBe(2);
    await openSession(at, as('bob'));
    const listed = await SELF.fetch(at, {
      method: 'POST',
      headers: { ...base, ...as('ana'), 'mcp-session-id': first },
      body: rpc('tools/list'),
    });
    expect(listed.status).toBe(200);
    await listed.text();
  });

  it('counts no anonymous caller: without authenticate, initializes past the limit all start sessions', async () => {
    const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
    // /mcp-capped lets no anonymous caller in: this is the door mountMcp serves, with a limit of
    // one session and no authenticate, so every caller is anonymous.
    const options = { sessionLimit: { binding: 'IDENTITY_STATE', maxSessionsPerIdentity: 1 } };
    const opened: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await mcpFetch(
        new Request(at, { method: 'POST', headers: base, body: initialize }),
        sessions,
        options,
        env,
      );
      await response.text();
      expect(response.status).toBe(200);
      opened.push(response.headers.get('mcp-session-id') ?? '');
    }
    expect(new Set(opened).size).toBe(3);
    expect(opened.every((session) => /^[0-9a-f]{64}$/.test(session))).toBe(true);
    expect(await liveNobody()).toBe(0);
  });

  it('counts every caller that authenticate answers with an identity of no tenant and no principal as one identity', async () => {
    const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
    // Each caller brings a token of its own, and authenticate names none of them.
    const options = {
      sessionLimit: { binding: 'IDENTITY_STATE', maxSessionsPerIdentity: 1 },
      authenticate: () => ({}),
    };
    const open = (token: string) =>
      mcpFetch(
        new Request(at, {
          method: 'POST',
          headers: { ...base, authorization: `Bearer ${token}` },
          body: initialize,
        }),
        sessions,
        options,
        env,
      );
    const first = await open('nobody-one');
    await first.text();
    expect(first.status).toBe(200);
    const second = await open('nobody-two');
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({
      error: { message: expect.stringMatching(/maxSessionsPerIdentity/) },
    });
    const session = first.headers.get('mcp-session-id')!;
    const closed = await mcpFetch(
      new Request(at, { method: 'DELETE', headers: { ...base, 'mcp-session-id': session } }),
      sessions,
      options,
      env,
    );
    expect(closed.status).toBeLessThan(300);
  });

  it('allows 100 sessions an identity by default: the 101st initialize is a 429 naming 100', async () => {
    const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
    const options = {
      sessionLimit: { binding: 'IDENTITY_STATE' },
      authenticate: () => ({ tenant: 'acme', principal: 'hundred' }),
    };
    const open = () =>
      mcpFetch(new Request(at, { method: 'POST', headers: base, body: initialize }), sessions, options, env);
    const opened = await Promise.all(
      Array.from({ length: 100 }, async () => {
        const response = await open();
        await response.text();
        return response.status;
      }),
    );
    expect(opened).toEqual(opened.map(() => 200));
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(JSON.stringify(await refused.json())).toMatch(/\b100\b/);
  });

  it('gives a slot back when a session is closed, so the identity can open another', async () => {
    const first = await openSession(at, as('cy'));
    await openSession(at, as('cy'));
    expect(await close('cy', first)).toBe(200);
    expect(await live('cy')).toBe(1);
    await openSession(at, as('cy'));
    expect(await live('cy')).toBe(2);
  });

  it('gives back the slot of a session whose object lost it (evicted) when its alarm clears the record', async () => {
    const session = await openSession(at, as('dee'));
    expect(await live('dee')).toBe(1);
    const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
    const stub = sessions.get(sessions.idFromString(session));
    // What an eviction leaves: the object's storage, nothing in memory.
    await runInDurableObject(stub, (instance) => {
      Object.assign(instance, { session: undefined, owner: undefined });
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await live('dee')).toBe(0);
  });

  it('takes no slot for an initialize the session refuses, nor for a request that is not one', async () => {
    // A client that cannot read event streams: the transport answers 406, no session starts.
    const bad = await SELF.fetch(at, {
      method: 'POST',
      headers: { ...base, ...as('eve'), accept: 'application/json' },
      body: initialize,
    });
    await bad.text();
    expect(bad.status).toBe(406);
    const notInitialize = await SELF.fetch(at, {
      method: 'POST',
      headers: { ...base, ...as('eve') },
      body: rpc('tools/list'),
    });
    expect(notInitialize.status).toBe(400);
    await notInitialize.text();
    expect(await live('eve')).toBe(0);
  });

  it('ignores a slot header a client sends: only the Worker names where slots are counted', async () => {
    const forged = { ...as('fay'), 'x-toolctx-session-slots': 'IDENTITY_STATE' };
    // /mcp-auth caps nothing: the session records no counter, whatever the client sent.
    const session = await openSession('http://toolctx.test/mcp-auth', forged);
    const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
    const owner = await runInDurableObject(sessions.get(sessions.idFromString(session)), (_object, state) =>
      state.storage.get('owner'),
    );
    expect(owner).toEqual({ identity: { tenant: 'acme', principal: 'fay' } });
    // On the capped route the Worker's own header wins.
    const capped = await openSession(at, { ...as('fay'), 'x-toolctx-session-slots': 'MCP_SESSIONS' });
    expect(await live('fay')).toBe(1);
    expect(await close('fay', capped)).toBe(200);
    expect(await live('fay')).toBe(0);
  });
});
