// A client that hangs up cancels its call, under `wrangler dev`: plain JSON calls as well as SSE
// calls. The call's end is watched on the run's event stream, by the test's clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';
import { watchRun } from './run-events.js';

let worker: ExampleWorker;
beforeAll(async () => {
  worker = await startExampleWorker();
});
afterAll(() => worker?.dev.stop());

describe.each([
  ['JSON', 'application/json'],
  ['SSE', 'text/event-stream'],
])('a %s call whose client hangs up', (label, accept) => {
  it('ends as tool.failed (aborted) within 2 s of the hang-up', async () => {
    const runId = await worker.startRun();
    const events = await watchRun(worker, runId);
    const toolCallId = `call_hangup_${label}`;
    const client = new AbortController();
    const answer = worker
      .post(
        `/runs/${runId}/calls`,
        { tool: 'slow_wait', args: { ms: 8000 }, toolCallId },
        {
          signal: client.signal,
          headers: { accept },
        },
      )
      .then((response) => response.text())
      .catch(() => 'aborted');
    await events.next((e) => e.type === 'tool.started' && e.callId === toolCallId);
    // Let the request settle into its wait (headers sent, heartbeats flowing) before hanging up.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const hungUpAt = performance.now();
    client.abort();
    await answer;
    const end = await events.next(
      (e) => (e.type === 'tool.failed' || e.type === 'tool.finished') && e.callId === toolCallId,
      12_000,
    );
    const latencyMs = Math.round(end.at - hungUpAt);
    console.log(`${label} call: hang-up to ${end.type} in ${latencyMs} ms`);
    events.close();
    expect(end.type).toBe('tool.failed');
    expect((end.data as { error?: { kind?: string } }).error?.kind).toBe('aborted');
    expect(latencyMs).toBeLessThan(2000);
  });
});
