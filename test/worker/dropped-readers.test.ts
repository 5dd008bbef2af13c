// Readers of a run's event stream that connect and drop at once are released promptly — when a
// heartbeat write to them fails, under wrangler dev about 1.5–2 s (four 500 ms heartbeats) after
// the hang-up — so a later call is not slowed by them and their stream slots are free again. The stream limit here is exactly the number of
// readers dropped, so that all of them get in and reopening them all proves every slot came back.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ExampleWorker, startExampleWorker } from './example-worker.js';

const dropped = 300;

let worker: ExampleWorker;
beforeAll(async () => {
  worker = await startExampleWorker({ TOOLCTX_MAX_STREAMS_PER_RUN: String(dropped) });
});
afterAll(() => worker?.dev.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function quickCall(runId: string): Promise<number> {
  const started = performance.now();
  const response = await worker.post(`/runs/${runId}/calls`, {
    tool: 'count_steps',
    args: { steps: 1, delayMs: 0 },
  });
  expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
  return performance.now() - started;
}

/** The median time of `times` quick calls in `runId`. */
async function callLatency(runId: string, times: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await quickCall(runId));
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

function openEvents(runId: string) {
  const client = new AbortController();
  return worker
    .send(`/runs/${runId}/events`, { signal: client.signal })
    .then((response) => ({ response, client }));
}

/** `count` readers that connect (each gets its 200) and hang up at once, 20 at a time. */
async function connectAndDrop(runId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => openEvents(runId)));
    for (const { response, client } of batch) {
      expect(response.status).toBe(200);
      client.abort();
    }
  }
}

const lost = () => worker.dev.output().split('Network connection lost').length - 1;

it(`${dropped} readers that connect and drop are released within seconds: a later call is not slowed, every slot comes back`, async () => {
  const runId = await worker.startRun();
  await callLatency(runId, 3); // warm up
  const baseline = await callLatency(runId, 7);

  // A call made at once, while the drops are not yet found, still writes to them: measured, shown.
  let lostBefore = lost();
  await connectAndDrop(runId, dropped);
  const atOnce = await quickCall(runId);
  await sleep(2500);
  const lostAtOnce = lost() - lostBefore;

  // A call made 2.5 s later finds them gone already.
  lostBefore = lost();
  await connectAndDrop(runId, dropped);
  await sleep(2500);
  const lostBeforeCall = lost();
  const later = await quickCall(runId);
  const lostDuringCall = lost() - lostBeforeCall;
  const after = await callLatency(runId, 7);
  console.log(
    `baseline call ${baseline.toFixed(1)} ms; ${dropped} readers dropped, then a call at once: ${atOnce.toFixed(1)} ms ` +
      `("Network connection lost" logged ${lostAtOnce} times); a call 2.5 s after the drops: ${later.toFixed(1)} ms, ` +
      `median of 7 more ${after.toFixed(1)} ms (logged ${lost() - lostBefore} times, ${lostDuringCall} during the call)`,
  );
  expect(later).toBeLessThan(Math.max(5 * baseline, baseline + 100));
  expect(after).toBeLessThan(Math.max(3 * baseline, baseline + 50));

  // Every slot came back: the limit's worth of readers opens again, and one more is refused.
  const reopened = await Promise.all(Array.from({ length: dropped }, () => openEvents(runId)));
  expect(reopened.map(({ response }) => response.status).filter((status) => status !== 200)).toEqual([]);
  const over = await worker.send(`/runs/${runId}/events`);
  expect(over.status).toBe(429);
  await over.body?.cancel();
  for (const { client } of reopened) client.abort();
});
