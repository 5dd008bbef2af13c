// The run host's one alarm under `wrangler dev`, with short windows from the example Worker's vars:
// an idle run is ended, an ended run's Durable Object storage is deleted a retention window later
// (the run then answers 404 like one that never existed), and a call resumed by an approval holds
// the idle alarm off.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolResult } from '@toolctx/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';
import { eventsUntil } from './sse-events.js';

const idleMs = 1500;
const retentionMs = 3000;

let worker: ExampleWorker;
beforeAll(async () => {
  worker = await startExampleWorker({
    TOOLCTX_RUN_IDLE_MS: String(idleMs),
    TOOLCTX_RUN_RETENTION_MS: String(retentionMs),
  });
});
afterAll(async () => {
  await worker?.dev.stop();
});

/** Polls until `check` is true; how long it took. */
async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < budget(timeoutMs)) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not within ${budget(timeoutMs)} ms`);
}

/**
 * Bytes on disk of the run objects' storage: each object's SQLite database and its write-ahead
 * log (not the namespace's metadata, nor the `-shm` index, which holds no data).
 */
async function durableObjectBytes(): Promise<number> {
  const dir = join(worker.dev.stateDir, 'v3', 'do', 'toolctx-RunHost');
  let total = 0;
  for (const name of await readdir(dir).catch(() => [])) {
    if (name.startsWith('metadata.') || name.endsWith('-shm')) continue;
    total += (await stat(join(dir, name))).size;
  }
  return total;
}

const gone = (runId: string) => async () => (await worker.send(`/runs/${runId}/events`)).status === 404;

describe('run retention on the example Worker under wrangler dev', () => {
  it('a run nobody ends is ended by its idle alarm, then deleted a retention window later', async () => {
    const before = await durableObjectBytes();
    const runId = await worker.startRun('ana', { sessionId: 'sess-idle' });
    // Before the call is sent: the run's idle window starts once the Worker has it, which can be
    // tens of ms before its answer reaches this process on a loaded machine.
    const lastRequest = Date.now();
    const call = await worker.post(`/runs/${runId}/calls`, {
      tool: 'count_steps',
      args: { steps: 3, delayMs: 0 },
    });
    expect(await call.json()).toMatchObject({ ok: true });
    // The stream ends by itself with run.finished: the idle alarm ended the run.
    const events = await eventsUntil(await worker.send(`/runs/${runId}/events`));
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', data: { status: 'ended', calls: 1 } });
    const endedAfter = events.at(-1)!.ts - lastRequest;
    expect(endedAfter).toBeGreaterThanOrEqual(idleMs);
    expect(endedAfter).toBeLessThan(idleMs * 1.1 + 4000);
    const withRun = await durableObjectBytes();

    const deletedAfter = await waitFor(gone(runId));
    const deletedAt = Date.now();
    expect(deletedAt - events.at(-1)!.ts).toBeGreaterThanOrEqual(retentionMs - 100);
    const response = await worker.post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1 } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ kind: 'not-found' });
    const after = await durableObjectBytes();
    expect(withRun).toBeGreaterThan(before);
    expect(after).toBeLessThan(withRun);
    console.log(
      `idle end ${endedAfter} ms after the last request; deleted ${deletedAt - events.at(-1)!.ts} ms after the end ` +
        `(polled ${deletedAfter} ms); DO storage bytes before/with/after: ${before}/${withRun}/${after}`,
    );
  });

  it('a run ended by DELETE is deleted a retention window later, and stays unknown after a restart', async () => {
    const runId = await worker.startRun();
    const ended = await worker.send(`/runs/${runId}`, { method: 'DELETE' });
    expect(await ended.json()).toMatchObject({ ended: true });
    const endedAt = Date.now();
    // Kept through the window: an ended run can still be read.
    expect((await worker.send(`/runs/${runId}/events`)).status).toBe(200);
    await waitFor(gone(runId));
    expect(Date.now() - endedAt).toBeGreaterThanOrEqual(retentionMs - 500);
    await worker.dev.restart();
    expect((await worker.send(`/runs/${runId}/events`)).status).toBe(404);
  });

  it('a call running on an approval holds off the idle alarm: it finishes, and the run ends only after', async () => {
    const runId = await worker.startRun();
    const asked = await worker.post(`/runs/${runId}/calls`, {
      tool: 'publish_note',
      args: { title: 'slow', delayMs: idleMs * 3 },
      toolCallId: 'held-1',
    });
    const pending = (await asked.json()) as ToolResult;
    const approvalId = String(!pending.ok && pending.error.details?.approvalId);
    const decided = await worker.post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(await decided.json()).toMatchObject({ ok: true, value: { published: 'slow', approvalId } });
    const events = await eventsUntil(await worker.send(`/runs/${runId}/events`));
    const types = events.map((e) => e.type);
    expect(types.indexOf('tool.finished')).toBeGreaterThan(-1);
    expect(types.indexOf('tool.finished')).toBeLessThan(types.indexOf('run.finished'));
  });

  it("another identity's requests (each a 404) do not keep the run alive", async () => {
    const runId = await worker.startRun();
    const lastOwnRequest = Date.now();
    const events = worker.send(`/runs/${runId}/events`).then((response) => eventsUntil(response));
    const call = { tool: 'count_steps', args: { steps: 1, delayMs: 0 } };
    let bobAnswers = 0;
    while (Date.now() - lastOwnRequest < idleMs * 3) {
      const answer = await worker.post(`/runs/${runId}/calls`, call, { as: 'bob' });
      expect(answer.status).toBe(404);
      bobAnswers++;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const finished = (await events).at(-1)!;
    expect(finished.type).toBe('run.finished');
    expect(finished.ts - lastOwnRequest).toBeLessThan(idleMs * 1.1 + 3000);
    expect(bobAnswers).toBeGreaterThan(5);
  });
});
