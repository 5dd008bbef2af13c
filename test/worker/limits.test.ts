// The limits under `wrangler dev`, set small through the example Worker's vars: past each one a
// 429 with Retry-After and an ErrorInfo naming it; nothing else is affected; slots come back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';

let worker: ExampleWorker;
beforeAll(async () => {
  worker = await startExampleWorker({
    TOOLCTX_MAX_RUNS_PER_IDENTITY: '2',
    TOOLCTX_MAX_CALLS_PER_RUN: '2',
    TOOLCTX_MAX_STREAMS_PER_RUN: '2',
    TOOLCTX_MAX_PENDING_APPROVALS_PER_RUN: '2',
  });
});
afterAll(() => worker?.dev.stop());

async function expectLimit(response: Response, limit: number, option: string): Promise<void> {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = (await response.json()) as { kind: string; message: string; details: unknown };
  expect(body).toMatchObject({ kind: 'limit-exceeded', details: { limit, option } });
  expect(body.message).toContain(option);
}

const slow = (runId: string, toolCallId: string, as = 'ana') =>
  worker.post(`/runs/${runId}/calls`, { tool: 'slow_wait', args: { ms: 30_000 }, toolCallId }, { as });
const quick = async (runId: string, as = 'ana') => {
  const response = await worker.post(
    `/runs/${runId}/calls`,
    { tool: 'count_steps', args: { steps: 1, delayMs: 0 } },
    { as },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { ok: boolean }).ok;
};

/** Calls `publish_note`, which waits for approval; answers the approval id it waits for. */
const askApproval = async (runId: string, toolCallId: string, as: string) => {
  const response = await worker.post(
    `/runs/${runId}/calls`,
    { tool: 'publish_note', args: { title: toolCallId }, toolCallId },
    { as },
  );
  expect(response.status).toBe(200);
  const result = (await response.json()) as { error?: { kind: string; details?: { approvalId?: string } } };
  expect(result.error?.kind).toBe('approval-pending');
  return String(result.error?.details?.approvalId);
};

describe('limits under wrangler dev', () => {
  it('runs per identity: the third live run is a 429; another principal is not affected; DELETE frees a slot', async () => {
    const first = await worker.startRun('rita');
    await worker.startRun('rita');
    await expectLimit(await worker.post('/runs', {}, { as: 'rita' }), 2, 'maxRunsPerIdentity');
    expect(await worker.startRun('sam')).toMatch(/^run_/);
    expect(await quick(first, 'rita')).toBe(true);
    await (await worker.send(`/runs/${first}`, { method: 'DELETE', as: 'rita' })).text();
    expect(await worker.startRun('rita')).toMatch(/^run_/);
  });

  it('calls per run: the third running call is a 429; another run carries on; cancelling one frees its slot', async () => {
    const runId = await worker.startRun('carl');
    const other = await worker.startRun('carl');
    const running = [await slow(runId, 'c1', 'carl'), await slow(runId, 'c2', 'carl')];
    expect(running.map((r) => r.status)).toEqual([200, 200]);
    await expectLimit(await slow(runId, 'c3', 'carl'), 2, 'maxCallsPerRun');
    expect(await quick(other, 'carl')).toBe(true);
    await (await worker.send(`/runs/${runId}/calls/c1/cancel`, { method: 'POST', as: 'carl' })).text();
    expect(await running[0]!.json()).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(await quick(runId, 'carl')).toBe(true);
    await (await worker.send(`/runs/${runId}`, { method: 'DELETE', as: 'carl' })).text();
    await running[1]!.text();
  });

  it('streams per run: the third reader is a 429; a reader that hangs up frees its slot within a few heartbeats', async () => {
    const runId = await worker.startRun('stella');
    const clients = [new AbortController(), new AbortController()];
    const readers = await Promise.all(
      clients.map((client) => worker.send(`/runs/${runId}/events`, { as: 'stella', signal: client.signal })),
    );
    expect(readers.map((r) => r.status)).toEqual([200, 200]);
    // The readers read, as an EventSource does.
    for (const reader of readers) void reader.text().catch(() => {});
    await expectLimit(await worker.send(`/runs/${runId}/events`, { as: 'stella' }), 2, 'maxStreamsPerRun');
    expect(await quick(runId, 'stella')).toBe(true);
    const hungUpAt = performance.now();
    clients[0]!.abort();
    let again: Response;
    while (true) {
      again = await worker.send(`/runs/${runId}/events`, { as: 'stella' });
      if (again.status !== 429 || performance.now() - hungUpAt > 5000) break;
      await again.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const freedMs = Math.round(performance.now() - hungUpAt);
    console.log(`a reader's stream slot came back ${freedMs} ms after it hung up`);
    expect(again.status).toBe(200);
    // Under wrangler dev a GET reader's hang-up surfaces on about the fourth 500 ms heartbeat
    // (a POST's on the first or second); the default heartbeat of 15 s would take far longer.
    expect(freedMs).toBeLessThan(4000);
    await again.body?.cancel();
    clients[1]!.abort();
  });

  it('pending approvals per run: a third call that may ask is a 429; other tools and runs carry on; a decision frees a slot', async () => {
    const runId = await worker.startRun('paula');
    const first = await askApproval(runId, 'a1', 'paula');
    await askApproval(runId, 'a2', 'paula');
    const refused = await worker.post(
      `/runs/${runId}/calls`,
      { tool: 'publish_note', args: { title: 'a3' }, toolCallId: 'a3' },
      { as: 'paula' },
    );
    await expectLimit(refused, 2, 'maxPendingApprovalsPerRun');
    expect(await quick(runId, 'paula')).toBe(true);
    await askApproval(await worker.startRun('paula'), 'elsewhere', 'paula');
    const decided = await worker.post(`/approvals/${first}`, { runId, approved: true }, { as: 'paula' });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({ ok: true });
    await askApproval(runId, 'a4', 'paula');
  });
});
