// `pnpm load`: the example Worker (packages/edge) under `wrangler dev` on loopback, in three
// phases, then the bounds issue 18 (filed as "issue 14": retention, limits, nothing grows without
// bound) asserted with their figures; exits non-zero naming each bound that does not hold.
//
// 1. Memory (scripts/load/memory.mjs): autocannon, CALLS calls (default 2,000) or DURATION_S
//    seconds (default 60), whichever comes first, over CONNECTIONS runs (default 16). Every call
//    streams its events as SSE and each stream is checked (seq strictly rising, progress 1..steps
//    with none lost or repeated, one result); then each run's log is read back (the kept window of
//    the last 1,000 events without a gap or repeat, ending at the seq the streams saw).
//    V8 collects the garbage of finished calls late (likely memory outside the JS heap held by
//    small JS objects, which V8 does not weigh as heap pressure), so raw RSS keeps climbing long
//    after nothing is retained. To tell garbage from retention, at every tenth of the calls the
//    script asks the runtime's inspector for a full GC, then reads the isolate's live JS heap and
//    the runtime's RSS. Bounded means, over the second half of the calls (least squares on those
//    checkpoints): the live heap grows at most HEAP_BOUND_KIB_PER_CALL (default 1) and the RSS
//    after GC at most RSS_BOUND_KIB_PER_CALL (default 10) per call. A leak of a call's events or
//    its stream is a straight line of tens of KiB per call; a filled cache levels off. Smaller
//    leaks are for unit tests (packages/edge/src/run-host/run-state.test.ts).
// 2. Scale (scripts/load/scale.mjs): for each of LEVELS (default 16 and 64) that many runs at once,
//    each a client making CALLS_PER_RUN calls (default 16) one after another while reading its
//    run's events: calls per second, p50/p99 latency, errors, and the run's Durable Object
//    storage once its calls ended. Then the log window: one run with 1,022 events, one with 3,062.
// 3. Retention: every run from phase 2 must answer 404 within the retention window (plus slack)
//    of its end, its object holding no more than an empty database (an object never written).
// Between 1 and 2, fair share (scripts/load/fair-share.mjs): one identity floods `POST /calls`
//    with FLOOD_CLIENTS clients (default 64, four times its limit of 16 calls in flight) while
//    another makes FAIR_CALLS calls (default 40) one after another, alone and then beside the
//    flood, in FAIR_ROUNDS rounds (default 3): the quiet identity's p50 under the flood must stay
//    within 3× its p50 alone (medians of the rounds).
//
// Storage is `ctx.storage.sql.databaseSize` read by the load Worker's own route
// (scripts/load/worker.js): what Cloudflare bills a SQLite-backed object's stored data on. The
// files under --persist-to would mislead: there most of a run's bytes sit in SQLite's write-ahead
// log, which no deployment pays for. Short idle and retention windows (5 s, 15 s) stand in for
// the defaults (15 minutes, a day); the code path is the same alarm.
// Not part of `npm test`: it takes about two minutes.

import { fairSharePhase } from './load/fair-share.mjs';
import { memoryPhase } from './load/memory.mjs';
import { bounds, levelFigures, loadNow, printTable, writeBenchmarks } from './load/report.mjs';
import { scaleLevel, storageOf, waitForDeletion, windowRuns } from './load/scale.mjs';
import {
  connectInspector,
  identityStorageBytes,
  startWorker,
  storageBytes,
  waitUntilUp,
} from './load/worker-process.mjs';

const env = process.env;
const settings = {
  calls: Number(env.CALLS ?? 2000),
  durationS: Number(env.DURATION_S ?? 60),
  connections: Number(env.CONNECTIONS ?? 16),
  steps: Number(env.STEPS ?? 5),
  heapBound: Number(env.HEAP_BOUND_KIB_PER_CALL ?? 1),
  rssBound: Number(env.RSS_BOUND_KIB_PER_CALL ?? 10),
  levels: (env.LEVELS ?? '16,64').split(',').map(Number),
  callsPerRun: Number(env.CALLS_PER_RUN ?? 16),
  floodClients: Number(env.FLOOD_CLIENTS ?? 64),
  floodRetryMs: env.FLOOD_RETRY_MS ? Number(env.FLOOD_RETRY_MS) : undefined,
  quietCount: Number(env.FAIR_CALLS ?? 40),
  fairRounds: Number(env.FAIR_ROUNDS ?? 3),
  idleMs: 5000,
  retentionMs: 15_000,
};
const port = Number(env.PORT ?? 8787 + Math.floor(Math.random() * 1000));
const loadAtStart = loadNow();
const worker = startWorker({
  port,
  inspectorPort: port + 1,
  token: `load-${Math.random().toString(36).slice(2)}`,
  vars: { TOOLCTX_RUN_IDLE_MS: settings.idleMs, TOOLCTX_RUN_RETENTION_MS: settings.retentionMs },
});
try {
  const headers = worker.headersAs('load');
  await waitUntilUp(worker.base, headers);

  let memory;
  if (settings.calls > 0) {
    console.error(`memory: ${settings.calls} SSE calls over ${settings.connections} runs…`);
    const inspector = await connectInspector({ inspectorPort: port + 1, base: worker.base, headers });
    memory = await memoryPhase({ worker, inspector, ...settings });
    inspector.close();
    console.log(JSON.stringify(memory.figures, null, 2));
    console.log(memory.verdict);
  }

  const options = { ...settings, base: worker.base, headersAs: worker.headersAs };
  console.error(
    `fair share: one identity flooding POST /calls with ${settings.floodClients} clients beside another's calls, ${settings.fairRounds} rounds…`,
  );
  const fair = await fairSharePhase({ ...options, rounds: settings.fairRounds });
  console.log(JSON.stringify(fair));
  const levels = [];
  for (const concurrency of settings.levels) {
    console.error(`scale: ${concurrency} runs × ${settings.callsPerRun} calls…`);
    const level = await scaleLevel(options, concurrency);
    const { runs: _, problems, limit, ...shown } = level;
    console.log(JSON.stringify({ ...shown, errors: problems.length, limitProbe: limit }));
    levels.push(level);
  }
  console.error('log window: runs with 1,022 and 3,062 events…');
  const window = await windowRuns(options);
  console.error(
    `retention: waiting for every run to be deleted (${settings.retentionMs / 1000} s after its end)…`,
  );
  const ended = [...levels.flatMap((level) => level.runs), ...window];
  const deleted = await waitForDeletion(options, ended, 10_000);
  // A restart makes every object start afresh, as after an eviction, so a deleted run's object
  // and one never written are measured alike (local workerd adds a table of its own to each).
  console.error('restarting wrangler dev to measure every object afresh…');
  await worker.restart();
  const floorBytes = await storageBytes(worker.base, headers, `run_never-written-${port}`);
  const sizes = await storageOf(options, ended);
  const retained = deleted.map((run, i) => ({ ...run, bytes: sizes[i].bytes }));
  const figures = levels.map((level) => levelFigures(level, retained));
  // Every identity of the load has no live run left: its counter should keep nothing.
  const principals = [
    'load',
    ...settings.levels.map((n) => `load-${n}`),
    'load-window',
    'load-limit',
    'load-quiet',
    'load-flood',
  ];
  const identities = {
    neverUsed: await identityStorageBytes(worker.base, worker.headersAs(`load-never-${port}`)),
    largest: Math.max(
      ...(await Promise.all(principals.map((p) => identityStorageBytes(worker.base, worker.headersAs(p))))),
    ),
    count: principals.length,
  };

  printTable(figures, floorBytes);
  const list = bounds({ levels: figures, floorBytes, window, memory, identities, fair });
  const args = { levels: figures, floorBytes, window, memory, identities, fair, settings, loadAtStart, list };
  console.log(`\n${writeBenchmarks(args)}`);
  console.error('Wrote the Scale section of BENCHMARKS.md.');
  const problems = [
    ...(memory?.problems ?? []),
    ...fair.quietProblems,
    ...figures.flatMap((l) => l.problems),
  ];
  for (const problem of problems.slice(0, 10)) console.error(problem);
  for (const bound of list)
    console.log(
      `${bound.ok ? 'holds' : 'EXCEEDED'}: ${bound.name}${bound.figure ? ` — ${bound.figure}` : ''}`,
    );
  process.exitCode = list.every((bound) => bound.ok) ? 0 : 1;
} finally {
  worker.stop();
}
