// A client that hangs up cancels its call, under `wrangler dev`: plain JSON calls as well as SSE
// calls. The call's end is watched on the run's event stream, by the test's clock.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExampleWorker, startExampleWorker, tokenFor } from './example-worker.js';
import { hangUpDuring, watchRun } from './run-events.js';

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
    const toolCallId = `call_hangup_${label}`;
    const { end, latencyMs } = await hangUpDuring(
      worker,
      runId,
      toolCallId,
      (e) => e.type === 'tool.started' && e.callId === toolCallId,
      (signal) =>
        worker.post(
          `/runs/${runId}/calls`,
          { tool: 'slow_wait', args: { ms: 8000 }, toolCallId },
          { signal, headers: { accept } },
        ),
    );
    console.log(`${label} call: hang-up to ${end.type} in ${latencyMs} ms`);
    expect(end.type).toBe('tool.failed');
    expect((end.data as { error?: { kind?: string } }).error?.kind).toBe('aborted');
    expect(latencyMs).toBeLessThan(2000);
  });
});

// Not a hang-up: a client that shuts its sending side but keeps reading still gets its answer.
it('a client that half-closes but keeps reading gets the result; the call is not cancelled', async () => {
  const runId = await worker.startRun();
  const events = await watchRun(worker, runId);
  const { hostname, port } = new URL(worker.dev.url);
  const body = JSON.stringify({ tool: 'slow_wait', args: { ms: 1500 }, toolCallId: 'call_half_close' });
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk));
  const closed = new Promise((resolve) => socket.on('close', resolve));
  socket.write(
    `POST /runs/${runId}/calls HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${await tokenFor('ana')}\r\n` +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\n` +
      `connection: close\r\n\r\n${body}`,
  );
  await events.next((e) => e.type === 'tool.started' && e.callId === 'call_half_close');
  socket.end();
  const end = await events.next(
    (e) => (e.type === 'tool.failed' || e.type === 'tool.finished') && e.callId === 'call_half_close',
  );
  await closed;
  events.close();
  expect(end.type).toBe('tool.finished');
  expect(received).toContain('"ok":true');
});

it('a JSON client reads the streamed answer with response.json(); a refusal before the call is still its own status', async () => {
  const runId = await worker.startRun();
  const started = performance.now();
  const response = await worker.post(`/runs/${runId}/calls`, { tool: 'slow_wait', args: { ms: 4000 } });
  const headersAfter = performance.now() - started;
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(await response.json()).toMatchObject({ ok: true, value: { waitedMs: expect.any(Number) } });
  // The 200 came well before the call's 4 s were up (room for a loaded machine).
  expect(headersAfter).toBeLessThan(2500);
  const unknown = await worker.post('/runs/run_nope/calls', { tool: 'slow_wait', args: { ms: 1 } });
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toMatchObject({ kind: 'not-found' });
});
