// What an ended run's Durable Object still holds once its retention window has passed, under
// `wrangler dev`: nothing beyond an object never written, measured as Cloudflare bills a
// SQLite-backed object's stored data (`ctx.storage.sql.databaseSize`). The Worker is the one
// `pnpm load` runs (scripts/load/worker.js): the example Worker plus a route that reads that size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir, workerToken } from './example-worker.js';

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({
    cwd: edgeDir,
    config: '../../scripts/load/wrangler.jsonc',
    vars: { TOOLCTX_TOKEN: workerToken, TOOLCTX_RUN_IDLE_MS: '1500', TOOLCTX_RUN_RETENTION_MS: '2000' },
  });
});
afterAll(async () => {
  await dev?.stop();
});

const headers = { authorization: `Bearer ${workerToken}`, 'x-toolctx-principal': 'ana' };
const send = (path: string, init: RequestInit = {}) =>
  fetch(`${dev.url}${path}`, { ...init, headers: { ...headers, 'content-type': 'application/json' } });

async function storageBytes(runId: string): Promise<number> {
  const response = await send(`/__load/storage/${runId}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { bytes: number }).bytes;
}

/** Starts a run, makes one call in it, and answers its id. */
async function runWithOneCall(): Promise<string> {
  const { runId } = (await (await send('/runs', { method: 'POST', body: '{}' })).json()) as { runId: string };
  const call = await send(`/runs/${runId}/calls`, {
    method: 'POST',
    body: JSON.stringify({ tool: 'count_steps', args: { steps: 3, delayMs: 0 } }),
  });
  expect(await call.json()).toMatchObject({ ok: true });
  return runId;
}

async function deleted(runId: string): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < 30_000) {
    const response = await send(`/runs/${runId}/events`);
    await response.text();
    if (response.status === 404) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${runId} was not deleted within 30 s`);
}

describe('an ended run’s Durable Object storage under wrangler dev', () => {
  it('once the retention window has passed, holds no more than an object never written: not even its alarm', async () => {
    const byDelete = await runWithOneCall();
    const byIdleAlarm = await runWithOneCall();
    expect((await send(`/runs/${byDelete}`, { method: 'DELETE' })).status).toBe(200);
    const kept = await storageBytes(byDelete);
    await Promise.all([deleted(byDelete), deleted(byIdleAlarm)]);
    // After a restart every object opens afresh, so the deleted ones and the one never written
    // are measured alike (local workerd adds a table of its own to each object it opens).
    await dev.restart();
    const neverWritten = await storageBytes('run_never-written');
    expect(kept).toBeGreaterThan(neverWritten);
    expect(await storageBytes(byDelete)).toBe(neverWritten);
    expect(await storageBytes(byIdleAlarm)).toBe(neverWritten);
  });
});
