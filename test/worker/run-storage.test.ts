// What an ended run's Durable Objects still hold, under `wrangler dev`: nothing beyond an object
// never written, measured as Cloudflare bills a SQLite-backed object's stored data
// (`ctx.storage.sql.databaseSize`). The Worker is the one `pnpm load` runs
// (scripts/load/worker.js): the example Worker plus routes that read that size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir, tokenFor, workerToken } from './example-worker.js';

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({
    cwd: edgeDir,
    config: '../../scripts/load/wrangler.jsonc',
    vars: {
      TOOLCTX_TOKEN: workerToken,
      TOOLCTX_RUN_IDLE_MS: '1500',
      TOOLCTX_RUN_RETENTION_MS: '2000',
      TOOLCTX_MAX_RUNS_PER_IDENTITY: '2',
    },
  });
});
afterAll(async () => {
  await dev?.stop();
});

const send = async (path: string, init: RequestInit & { as?: string } = {}) =>
  fetch(`${dev.url}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${await tokenFor(init.as ?? 'ana')}`,
      'content-type': 'application/json',
    },
  });

async function bytesAt(path: string, as = 'ana'): Promise<number> {
  const response = await send(path, { as });
  expect(response.status).toBe(200);
  return ((await response.json()) as { bytes: number }).bytes;
}
const storageBytes = (runId: string) => bytesAt(`/__load/storage/${runId}`);
const identityBytes = (as: string) => bytesAt('/__load/identity-storage', as);

/** Starts a run as `as`, makes one call in it, and answers its id. */
async function runWithOneCall(as = 'ana'): Promise<string> {
  const started = await send('/runs', { method: 'POST', body: '{}', as });
  expect(started.status).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  const call = await send(`/runs/${runId}/calls`, {
    as,
    method: 'POST',
    body: JSON.stringify({ tool: 'count_steps', args: { steps: 3, delayMs: 0 } }),
  });
  expect(await call.json()).toMatchObject({ ok: true });
  return runId;
}

async function deleted(runId: string, as = 'ana'): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < budget(30_000)) {
    const response = await send(`/runs/${runId}/events`, { as });
    await response.text();
    if (response.status === 404) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${runId} was not deleted within ${budget(30_000)} ms`);
}

// After a restart every object opens afresh, so deleted ones and one never written are measured
// alike (local workerd adds a table of its own to an object it opens).
describe('what ended runs leave in Durable Object storage under wrangler dev', () => {
  it('once the retention window has passed, a run’s object holds no more than one never written: not even its alarm', async () => {
    const byDelete = await runWithOneCall();
    const byIdleAlarm = await runWithOneCall();
    expect((await send(`/runs/${byDelete}`, { method: 'DELETE' })).status).toBe(200);
    const kept = await storageBytes(byDelete);
    await Promise.all([deleted(byDelete), deleted(byIdleAlarm)]);
    await dev.restart();
    const neverWritten = await storageBytes('run_never-written');
    expect(kept).toBeGreaterThan(neverWritten);
    expect(await storageBytes(byDelete)).toBeLessThanOrEqual(neverWritten);
    expect(await storageBytes(byIdleAlarm)).toBeLessThanOrEqual(neverWritten);
  });

  it('an identity whose runs have all ended lists them until their retention passes, then keeps nothing, and counts from nothing after', async () => {
    const runs = [await runWithOneCall('cleo'), await runWithOneCall('cleo')];
    expect((await send('/runs', { method: 'POST', body: '{}', as: 'cleo' })).status).toBe(429);
    const counting = await identityBytes('cleo');
    for (const runId of runs)
      expect((await send(`/runs/${runId}`, { method: 'DELETE', as: 'cleo' })).status).toBe(200);
    // Ended, they are still listed (newest first) while their hosts keep them; another identity sees none.
    const listed = async (as: string) => {
      const response = await send('/runs', { as });
      expect(response.status).toBe(200);
      return ((await response.json()) as { runs: { runId: string; ended: boolean }[] }).runs;
    };
    await expect
      .poll(() => listed('cleo'))
      .toEqual([...runs].reverse().map((runId) => expect.objectContaining({ runId, ended: true })));
    expect(await listed('dana')).toEqual([]);
    // Once the hosts deleted the runs, the identity's alarm has taken them off its list.
    await Promise.all(runs.map((runId) => deleted(runId, 'cleo')));
    await expect.poll(() => listed('cleo'), { timeout: budget(10_000) }).toEqual([]);
    await dev.restart();
    const neverUsed = await identityBytes('nobody');
    expect(counting).toBeGreaterThan(neverUsed);
    expect(await identityBytes('cleo')).toBeLessThanOrEqual(neverUsed);
    // Two runs again, and a third is over the limit.
    await runWithOneCall('cleo');
    await runWithOneCall('cleo');
    expect((await send('/runs', { method: 'POST', body: '{}', as: 'cleo' })).status).toBe(429);
  });
});
