// Session cleanups under `wrangler dev`, where the door suite's Worker shares one runtime among
// every run object of its isolate: a session's cleanups are keyed by its identity as well as its
// id, so another identity that picks the same `sessionId` and ends its run fires none of yours.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/door-suite/wrangler.test.jsonc' });
});
afterAll(() => dev?.stop());

type Who = 'ana' | 'bob';
const send = (who: Who, path: string, init: RequestInit = {}) =>
  fetch(`${dev.url}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${who}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
  });

async function startRun(who: Who, sessionId: string): Promise<string> {
  const response = await send(who, '/runs', { method: 'POST', body: JSON.stringify({ sessionId }) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}

async function call(who: Who, runId: string, tool: string, args: unknown): Promise<unknown> {
  const response = await send(who, `/runs/${runId}/calls`, {
    method: 'POST',
    body: JSON.stringify({ tool, args }),
  });
  expect(response.status).toBe(200);
  const result = (await response.json()) as { ok: boolean; value?: unknown };
  expect(result.ok).toBe(true);
  return result.value;
}

async function endRun(who: Who, runId: string): Promise<void> {
  expect((await send(who, `/runs/${runId}`, { method: 'DELETE' })).status).toBe(200);
}

it('bob ending his run of the same sessionId fires none of ana’s session cleanups; ana’s own end fires hers once', async () => {
  const sessionId = `shared-${crypto.randomUUID()}`;
  const key = `session-teardown-${crypto.randomUUID()}`;
  const probe = async () =>
    (
      (await call('ana', await startRun('ana', `probe-${crypto.randomUUID()}`), 'door_probe', { key })) as {
        teardowns: number;
      }
    ).teardowns;

  const anas = await startRun('ana', sessionId);
  expect(await call('ana', anas, 'door_teardown', { key, scope: 'session' })).toEqual({ registered: true });
  const bobs = await startRun('bob', sessionId);
  expect(await call('bob', bobs, 'door_probe', { key: `bob-${key}` })).toMatchObject({ teardowns: 0 });
  await endRun('bob', bobs);
  expect(await probe(), 'bob’s run end fired ana’s session cleanup').toBe(0);

  await endRun('ana', anas);
  expect(await probe()).toBe(1);
});
