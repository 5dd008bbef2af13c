// A host that takes bigger bodies, under `wrangler dev`: the example Worker with
// TOOLCTX_MAX_BODY_BYTES at 8 MiB. A run's state over the 2 MB a Durable Object keeps in one value
// starts, runs and ends through a restart (its record is kept in pieces); past the limit is a 413.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';
import { eventsUntil } from './sse-events.js';

const maxBytes = 8 * 1024 * 1024;
let worker: ExampleWorker;
beforeAll(async () => {
  worker = await startExampleWorker({ TOOLCTX_MAX_BODY_BYTES: String(maxBytes) });
});
afterAll(() => worker?.dev.stop());

it('a run with 3 MB of state starts, runs a call, and after a restart ends with its events kept', async () => {
  const runId = await worker.startRun('ana', { state: { text: 'x'.repeat(3 * 1024 * 1024) } });
  const call = await worker.post(`/runs/${runId}/calls`, {
    tool: 'count_steps',
    args: { steps: 1, delayMs: 0 },
  });
  expect(await call.json()).toMatchObject({ ok: true, value: { steps: 1 } });

  await worker.dev.restart();
  // Its owner still has it (the record read back whole); anyone else still does not.
  expect((await worker.send(`/runs/${runId}`, { method: 'DELETE', as: 'bob' })).status).toBe(404);
  const ended = await worker.send(`/runs/${runId}`, { method: 'DELETE' });
  expect(ended.status).toBe(200);
  expect(await ended.json()).toMatchObject({ runId, ended: true });
  const events = await eventsUntil(await worker.send(`/runs/${runId}/events`));
  expect(events.map((event) => event.type)).toEqual([
    'run.started',
    'tool.started',
    'tool.progress',
    'tool.finished',
    'run.finished',
  ]);
});

it('a body past TOOLCTX_MAX_BODY_BYTES is a 413 that names the limit', async () => {
  const response = await worker.post('/runs', { state: { text: 'x'.repeat(maxBytes) } });
  expect(response.status).toBe(413);
  expect(await response.json()).toMatchObject({ kind: 'payload-too-large', details: { maxBytes } });
});
