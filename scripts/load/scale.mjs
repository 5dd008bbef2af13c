// The scale phase of `pnpm load`: N runs at once, each a client of its own that reads its run's
// events and makes its calls one after another (JSON and SSE by turns), then ends the run with
// DELETE (even runs) or leaves it to the idle alarm (odd ones). Then what the run's Durable
// Object keeps: right after its end (kept for the retention window), and after that window.
// Beside them, one more run probes the calls-per-run limit (limit-probe.mjs).
import { checkCall, checkLog, eventsPerCall, parseSse, percentile } from './checks.mjs';
import { limitProbe } from './limit-probe.mjs';
import { storageBytes } from './worker-process.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const json = { 'content-type': 'application/json' };

async function startRun(base, headers) {
  const response = await fetch(`${base}/runs`, {
    method: 'POST',
    headers: { ...headers, ...json },
    body: '{}',
  });
  if (response.status !== 201)
    throw new Error(`POST /runs answered ${response.status}: ${await response.text()}`);
  return (await response.json()).runId;
}

/** One `count_steps` call, timed until its whole answer is read; its problems, [] when whole. */
async function timedCall(base, headers, runId, steps, sse) {
  const body = JSON.stringify({ tool: 'count_steps', args: { steps, delayMs: 0 } });
  const accept = sse ? 'text/event-stream' : 'application/json';
  const started = performance.now();
  try {
    const response = await fetch(`${base}/runs/${runId}/calls`, {
      method: 'POST',
      headers: { ...headers, ...json, accept },
      body,
    });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200)
      return { ms, problems: [`${runId}: call ${response.status} ${text.slice(0, 200)}`] };
    if (sse) return { ms, problems: checkCall(text, steps).map((problem) => `${runId}: ${problem}`) };
    // A JSON answer is heartbeat newlines, then the ToolResult.
    const result = JSON.parse(text);
    const whole = result.ok && result.value?.steps === steps;
    return { ms, problems: whole ? [] : [`${runId}: result ${text.trim().slice(0, 200)}`] };
  } catch (error) {
    return { ms: performance.now() - started, problems: [`${runId}: call failed: ${error.message}`] };
  }
}

/** Opens the run's event stream; `done` answers its messages once it closes (after run.finished). */
async function openReader(base, headers, runId, timeoutMs) {
  const response = await fetch(`${base}/runs/${runId}/events`, {
    headers,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status !== 200) throw new Error(`${runId}: events answered ${response.status}`);
  return { done: response.text().then((text) => parseSse(text).filter((m) => m.id !== undefined)) };
}

async function driveRun(options, headers, runId, endBy) {
  const { base, callsPerRun, steps, idleMs } = options;
  const problems = [];
  const reader = await openReader(base, headers, runId, idleMs * 1.1 + 120_000);
  const latencies = [];
  for (let i = 0; i < callsPerRun; i++) {
    const call = await timedCall(base, headers, runId, steps, i % 2 === 1);
    latencies.push({ ms: call.ms, sse: i % 2 === 1 });
    problems.push(...call.problems);
  }
  const callsEndedAt = performance.now();
  if (endBy === 'delete') {
    const ended = await fetch(`${base}/runs/${runId}`, { method: 'DELETE', headers });
    if (ended.status !== 200) problems.push(`${runId}: DELETE answered ${ended.status}`);
    await ended.body?.cancel();
  }
  let endedTs;
  try {
    const messages = await reader.done;
    problems.push(...checkLog(runId, messages, 2 + eventsPerCall(steps) * callsPerRun));
    endedTs = JSON.parse(messages.at(-1)?.data ?? '{}').ts;
  } catch (error) {
    problems.push(`${runId}: the event stream did not end with the run: ${error.message}`);
  }
  const keptBytes = await storageBytes(base, headers, runId);
  return { runId, headers, latencies, problems, callsEndedAt, endedTs, keptBytes };
}

/**
 * `concurrency` runs at once as principal `load-<concurrency>`. Calls per second count the calls
 * of all runs over the time from the first call to the last call's end (the endings after it are
 * not calls).
 */
export async function scaleLevel(options, concurrency) {
  const headers = options.headersAs(`load-${concurrency}`);
  const runs = await Promise.all(Array.from({ length: concurrency }, () => startRun(options.base, headers)));
  const started = performance.now();
  const probe = limitProbe(options);
  const results = await Promise.all(
    runs.map((runId, i) => driveRun(options, headers, runId, i % 2 === 0 ? 'delete' : 'idle')),
  );
  const seconds = (Math.max(...results.map((r) => r.callsEndedAt)) - started) / 1000;
  const timed = results.flatMap((r) => r.latencies);
  const latencies = timed.map((t) => t.ms);
  const byFormat = (sse) => timed.filter((t) => t.sse === sse).map((t) => t.ms);
  const kept = results.map((r) => r.keptBytes);
  return {
    concurrency,
    calls: latencies.length,
    seconds,
    callsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    // JSON answers wait for the result behind heartbeats; SSE ones stream every event.
    p50Json: percentile(byFormat(false), 50),
    p50Sse: percentile(byFormat(true), 50),
    keptBytes: { mean: kept.reduce((a, b) => a + b, 0) / kept.length, max: Math.max(...kept) },
    problems: results.flatMap((r) => r.problems),
    limit: await probe,
    runs: results,
  };
}

/**
 * Two runs of `count_steps` with 100 steps (102 events a call): 10 calls (1,022 events) and 30
 * (3,062), each ended and measured. The log keeps the last `maxEvents` (1,000), so both should
 * hold about the same.
 */
export async function windowRuns(options) {
  const headers = options.headersAs('load-window');
  const steps = 100;
  const measured = [];
  for (const calls of [10, 30]) {
    const runId = await startRun(options.base, headers);
    const problems = [];
    for (let i = 0; i < calls; i++)
      problems.push(...(await timedCall(options.base, headers, runId, steps, false)).problems);
    const ended = await fetch(`${options.base}/runs/${runId}`, { method: 'DELETE', headers });
    const { lastSeq } = await ended.json();
    const endedTs = Date.now();
    const bytes = await storageBytes(options.base, headers, runId);
    measured.push({ runId, headers, calls, events: lastSeq, endedTs, bytes, problems });
  }
  return measured;
}

/**
 * Waits for each ended run to be deleted (its events answer 404) until its end plus the retention
 * window plus `slackMs`. Answers, per run, whether it was gone in time.
 */
export async function waitForDeletion(options, runs, slackMs) {
  const { base, retentionMs } = options;
  return Promise.all(
    runs.map(async ({ runId, headers, endedTs }) => {
      const deadline = (endedTs ?? Date.now()) + retentionMs + slackMs;
      await sleep(Math.max(0, (endedTs ?? Date.now()) + retentionMs - Date.now()));
      for (;;) {
        const response = await fetch(`${base}/runs/${runId}/events`, { headers });
        // Read to the end (an ended run's stream closes after its log): a cancelled body is a
        // connection reset that workerd logs as an error.
        await response.text();
        if (response.status === 404) return { runId, gone: true };
        if (Date.now() >= deadline) return { runId, gone: false };
        await sleep(500);
      }
    }),
  );
}

/** What each run's object holds now, in bytes. */
export async function storageOf(options, runs) {
  return Promise.all(
    runs.map(async ({ runId, headers }) => ({
      runId,
      bytes: await storageBytes(options.base, headers, runId),
    })),
  );
}
