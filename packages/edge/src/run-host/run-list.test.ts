import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import type { Identity } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import type { ExampleWorkerEnv } from '../env.js';
import { createMemoryRunDirectory, durableObjectRuns, type RunDirectory, type RunPage } from '../index.js';
import { memoryServer, runtime } from '../test-utils/server.js';
import { send as sendToWorker } from '../test-utils/worker.js';
import { identityStateOf } from './identity-slots.js';

// GET /runs: an identity's runs, newest first, a page at a time, within retention — the same
// contract from runs in memory and from the Durable Objects of the deployable Worker (src/worker.ts).

const bindings = env as unknown as ExampleWorkerEnv;

type Send = (path: string, as: 'a' | 'b', init?: RequestInit) => Promise<Response>;

/** A fresh pair of identities `a` and `b` on one door. */
interface Kit {
  send: Send;
  /** A request with no credentials. */
  anonymous: (path: string) => Promise<Response>;
  directory: () => RunDirectory;
}

let fresh = 0;
const kits: [string, () => Kit][] = [
  [
    'runs in memory',
    () => {
      const { send, app } = memoryServer();
      const names = { a: 'ana', b: 'bob' };
      const directory = createMemoryRunDirectory({ runtime });
      return {
        send: async (path, as, init) => send(path, { ...init, as: names[as] }),
        anonymous: async (path) => app.request(path),
        directory: () => directory,
      };
    },
  ],
  [
    'runs in Durable Objects',
    () => {
      // Each case its own principals: the identity objects outlive a case.
      fresh++;
      const names = { a: `ana-${fresh}`, b: `bob-${fresh}` };
      return {
        send: (path, as, init) => sendToWorker(path, { ...init, as: names[as] }),
        anonymous: (path) => exports.default.fetch(new Request(`http://toolctx.test${path}`)),
        directory: () => durableObjectRuns(bindings.RUNS, { identityState: bindings.IDENTITY_STATE }),
      };
    },
  ],
];

async function startRun(send: Send, as: 'a' | 'b', body: unknown = {}): Promise<string> {
  const response = await send('/runs', as, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

async function list(send: Send, as: 'a' | 'b', query = ''): Promise<RunPage> {
  const response = await send(`/runs${query}`, as);
  expect(response.status).toBe(200);
  return (await response.json()) as RunPage;
}

/** Every page from the first, following each cursor: the run ids in the order listed, and the pages' sizes. */
async function allPages(
  send: Send,
  as: 'a' | 'b',
  limit: number,
): Promise<{ ids: string[]; sizes: number[] }> {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(
      send,
      as,
      `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    ids.push(...page.runs.map((run) => run.runId));
    sizes.push(page.runs.length);
    cursor = page.cursor;
  } while (cursor);
  return { ids, sizes };
}

/** Until the next millisecond: runs started apart sort by their start. */
const nextMs = () => new Promise((resolve) => setTimeout(resolve, 2));

describe.each(kits)('GET /runs, %s', (_name, kitOf) => {
  it("lists the caller's runs newest first, a page at a time, each run once", async () => {
    const { send } = kitOf();
    const started: string[] = [];
    for (let i = 0; i < 5; i++) {
      started.push(await startRun(send, 'a', { sessionId: `sess-${i}`, phase: i === 0 ? 'plan' : 'act' }));
      await nextMs();
    }
    const first = await list(send, 'a');
    expect(first.cursor).toBeUndefined();
    expect(first.runs.map((run) => run.runId)).toEqual([...started].reverse());
    expect(first.runs.at(-1)).toEqual({
      runId: started[0],
      phase: 'plan',
      sessionId: 'sess-0',
      createdAt: expect.any(Number),
      ended: false,
    });
    const times = first.runs.map((run) => run.createdAt);
    expect(times).toEqual([...times].sort((x, y) => y - x));
    // Pages of two: 2, 2, 1, each cursor leading on, no run shown twice or left out.
    expect(await allPages(send, 'a', 2)).toEqual({ ids: [...started].reverse(), sizes: [2, 2, 1] });
    // A run started after the first page was read is at the head, and the cursor goes on as before.
    const page = await list(send, 'a', '?limit=3');
    const newest = await startRun(send, 'a');
    const rest = await list(send, 'a', `?cursor=${page.cursor}`);
    expect(rest.runs.map((run) => run.runId)).toEqual([started[1], started[0]]);
    expect((await list(send, 'a', '?limit=1')).runs[0]?.runId).toBe(newest);
  });

  it('lists an ended run as ended, with when it ended', async () => {
    const { send } = kitOf();
    const runId = await startRun(send, 'a');
    const live = await startRun(send, 'a');
    expect((await send(`/runs/${runId}`, 'a', { method: 'DELETE' })).status).toBe(200);
    // The run host tells the identity's list after the run finished, without holding up the DELETE.
    await expect
      .poll(async () => (await list(send, 'a')).runs.find((run) => run.runId === runId))
      .toEqual(expect.objectContaining({ runId, ended: true, endedAt: expect.any(Number) }));
    expect((await list(send, 'a')).runs.find((run) => run.runId === live)).toMatchObject({ ended: false });
  });

  it("shows another identity none of the caller's runs, even with the caller's cursor", async () => {
    const { send } = kitOf();
    const mine = [await startRun(send, 'a'), await startRun(send, 'a'), await startRun(send, 'a')];
    const first = await list(send, 'a', '?limit=1');
    expect(first.cursor).toBeDefined();
    expect(await list(send, 'b')).toEqual({ runs: [] });
    expect(await list(send, 'b', `?cursor=${first.cursor}`)).toEqual({ runs: [] });
    const theirs = await startRun(send, 'b');
    expect((await list(send, 'b')).runs.map((run) => run.runId)).toEqual([theirs]);
    expect((await list(send, 'a')).runs.map((run) => run.runId).sort()).toEqual([...mine].sort());
  });

  it('answers a cursor it did not make, and a limit outside 1–100, with a 400 naming the fix', async () => {
    const { send } = kitOf();
    await startRun(send, 'a');
    for (const query of ['?cursor=abc', '?cursor=runs_', '?cursor=runs_!!', `?cursor=runs_${btoa('nope')}`]) {
      const response = await send(`/runs${query}`, 'a');
      expect([query, response.status]).toEqual([query, 400]);
      expect(await response.json()).toMatchObject({
        kind: 'invalid-argument',
        message: expect.stringContaining('Pass the cursor of the previous page as is'),
      });
    }
    for (const limit of ['0', '101', '1.5', 'ten', '']) {
      const response = await send(`/runs?limit=${limit}`, 'a');
      expect([limit, response.status]).toEqual([limit, 400]);
      expect(await response.json()).toMatchObject({
        kind: 'invalid-argument',
        message: 'limit must be a whole number from 1 to 100.',
      });
    }
    expect((await send('/runs?limit=100', 'a')).status).toBe(200);
  });

  it('needs an identity, as every route of the door does', async () => {
    const { anonymous } = kitOf();
    const response = await anonymous('/runs?limit=5');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ kind: 'unauthenticated' });
  });

  it('keeps the conversations of one principal apart, and an empty tenant apart from none', async () => {
    const { directory } = kitOf();
    const runs = directory();
    const principal = `carol-${++fresh}`;
    const identities: Identity[] = [
      { tenant: 'acme', principal },
      { tenant: 'acme', principal, conversationId: 'c1' },
      { tenant: 'acme', principal, conversationId: 'c2' },
      { tenant: 'acme', principal, conversationId: '' },
      { tenant: '', principal },
      { principal },
    ];
    const ids = identities.map((_, i) => `run_conv_${fresh}_${i}`);
    for (const [i, identity] of identities.entries())
      expect((await runs.start({ runId: ids[i]!, identity })).ok).toBe(true);
    for (const [i, identity] of identities.entries()) {
      const page = await runs.list(identity);
      expect(page.ok && page.value.runs.map((run) => run.runId)).toEqual([ids[i]]);
    }
  });
});

describe('GET /runs: retention', () => {
  it('in memory, lists an ended run for retentionMs, then no more; a live run stays', async () => {
    const { send, startRun: start } = memoryServer({ retentionMs: 50 });
    const ended = await start();
    const live = await start();
    expect((await send(`/runs/${ended}`, { method: 'DELETE' })).status).toBe(200);
    const ids = async () =>
      ((await (await send('/runs')).json()) as RunPage).runs.map((run) => run.runId).sort();
    expect(await ids()).toEqual([ended, live].sort());
    await expect.poll(ids).toEqual([live]);
  });

  it("in Durable Objects, the identity's object lists an ended run until its retention passes, then its alarm removes it and an emptied object keeps no storage", async () => {
    const identity = { tenant: 'acme', principal: `dora-${++fresh}` };
    const counter = identityStateOf(bindings.IDENTITY_STATE, identity);
    const run = {
      runId: `run_kept_${fresh}`,
      owner: identity,
      phase: 'act' as const,
      createdAt: Date.now(),
      ended: false,
    };
    expect(await counter.enlistRun(run, 10)).toMatchObject({ ok: true, value: { taken: true } });
    const keepUntil = Date.now() + 200;
    await counter.finishRun({ ...run, ended: true, endedAt: Date.now() }, keepUntil);
    const listed = async () => (await counter.listRuns(identity, undefined, 10)).runs;
    expect(await listed()).toEqual([expect.objectContaining({ runId: run.runId, ended: true })]);
    expect(await runInDurableObject(counter, (_object, state) => state.storage.getAlarm())).toBe(keepUntil);
    // An alarm before the time changes nothing.
    await runDurableObjectAlarm(counter);
    expect(await listed()).toHaveLength(1);
    await expect
      .poll(async () => {
        await runDurableObjectAlarm(counter);
        return listed();
      })
      .toEqual([]);
    const keys = await runInDurableObject(counter, (_object, state) => [...state.storage.kv.list()]);
    expect(keys).toEqual([]);
  });

  it('in Durable Objects, a run that never started, or one its host deleted, leaves the list at once', async () => {
    const identity = { tenant: 'acme', principal: `eve-${++fresh}` };
    const counter = identityStateOf(bindings.IDENTITY_STATE, identity);
    const run = {
      runId: `run_gone_${fresh}`,
      owner: identity,
      phase: 'act' as const,
      createdAt: Date.now(),
      ended: false,
    };
    await counter.enlistRun(run, 10);
    expect((await counter.listRuns(identity, undefined, 10)).runs).toHaveLength(1);
    await counter.finishRun(run, Date.now() - 1);
    expect((await counter.listRuns(identity, undefined, 10)).runs).toEqual([]);
    expect(await runInDurableObject(counter, (_object, state) => [...state.storage.kv.list()])).toEqual([]);
  });

  it("without identityState, durableObjectRuns's list is a 501 that names the option", async () => {
    const reply = await durableObjectRuns(bindings.RUNS).list({ tenant: 'acme', principal: 'ana' });
    expect(reply).toMatchObject({
      ok: false,
      status: 501,
      error: { kind: 'unsupported', message: expect.stringContaining('identityState: env.IDENTITY_STATE') },
    });
  });
});
