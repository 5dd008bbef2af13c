// The memory phase of `pnpm load`: autocannon over `connections` runs, every call streamed as SSE
// and checked, each run's log read back, and the runtime's memory judged on what survives a full
// GC (see scripts/load.mjs for why).
import autocannon from 'autocannon';
import { checkCall, checkLog, eventsPerCall, parseSse, slope } from './checks.mjs';
import { workerdRssKib } from './worker-process.mjs';

/** Raw RSS (no forced GC) of one process kind: at warm-up, mid, end, each tenth, and the second-half slope. */
function memoryFigures(samples, key, total) {
  const at = (fraction) => samples.find((s) => s.calls >= fraction * total) ?? samples.at(-1);
  const mib = (kib) => Math.round(kib / 1024);
  return {
    startMiB: mib(samples[0][key]),
    warmMiB: mib(at(0.25)[key]),
    midMiB: mib(at(0.5)[key]),
    endMiB: mib(samples.at(-1)[key]),
    peakMiB: mib(Math.max(...samples.map((s) => s[key]))),
    // RSS at each tenth of the calls: a plateau and a straight line look different here.
    tenthsMiB: Array.from({ length: 10 }, (_, i) => mib(at((i + 1) / 10)[key])).join(' '),
    secondHalfKiBPerCall: Number(
      slope(
        samples.filter((s) => s.calls >= total / 2),
        key,
      ).toFixed(2),
    ),
  };
}

async function startRuns(base, headers, count) {
  const runs = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${base}/runs`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    runs.push((await response.json()).runId);
  }
  return runs;
}

/**
 * Ends each run and reads its log back: the kept window must run without a gap or repeat up to
 * run.finished, whose seq must be 2 + (steps + 2) per call the streams saw in that run, or up to
 * `slack` more: the calls the time bound cut off were under way on the server and logged some
 * of their events, unseen by any stream.
 */
async function checkRunLogs(base, headers, runs, callsPerRun, steps, slack) {
  const problems = [];
  let events = 0;
  for (const runId of runs) {
    await fetch(`${base}/runs/${runId}`, { method: 'DELETE', headers });
    let response = await fetch(`${base}/runs/${runId}/events`, { headers });
    if (response.status === 410) {
      // The log was trimmed: resume where it now starts.
      const { details } = await response.json();
      response = await fetch(`${base}/runs/${runId}/events?after=${details.oldestSeq - 1}`, { headers });
    }
    const messages = parseSse(await response.text()).filter((m) => m.id !== undefined);
    events += messages.length;
    const expectedLast = 2 + eventsPerCall(steps) * (callsPerRun.get(runId) ?? 0);
    problems.push(...checkLog(runId, messages, expectedLast, slack));
  }
  return { problems, events };
}

/**
 * Runs the memory phase: at most `calls` calls or `durationS` seconds. Answers the figures, the
 * problems found and whether memory stayed within `heapBound` and `rssBound` KiB per call.
 */
export async function memoryPhase({
  worker,
  inspector,
  calls,
  durationS,
  connections,
  steps,
  heapBound,
  rssBound,
}) {
  const { base } = worker;
  const pgid = worker.pgid();
  const headers = worker.headersAs('load');
  const runs = await startRuns(base, headers, connections);
  let checked = 0;
  const samples = [{ calls: 0, ...workerdRssKib(pgid) }];
  const sampler = setInterval(() => samples.push({ calls: checked, ...workerdRssKib(pgid) }), 250);
  const callsPerRun = new Map();
  // After a full GC, at 0 and each tenth of the calls: { calls, heap, runtime } in KiB.
  const checkpoints = [];
  let measuring = Promise.resolve();
  const checkpoint = (count) => {
    measuring = measuring.then(async () => {
      const heap = await inspector.liveHeapKib();
      checkpoints.push({ calls: count, heap, runtime: workerdRssKib(pgid).runtime });
    });
  };
  checkpoint(0);
  await measuring;
  let next = 0;
  const callProblems = [];
  const body = JSON.stringify({ tool: 'count_steps', args: { steps, delayMs: 0 } });
  // `amount` makes autocannon ignore `duration`, so the time bound is a timer that stops it.
  const instance = autocannon({
    url: base,
    connections,
    amount: calls,
    requests: [
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
        setupRequest: (request) => ({ ...request, path: `/runs/${runs[next++ % runs.length]}/calls`, body }),
        onResponse: (status, text) => {
          checked++;
          if (checked % Math.ceil(calls / 10) === 0 && checked < calls) checkpoint(checked);
          const problems = status === 200 ? checkCall(text, steps) : [`status ${status}`];
          const runId = /"runId":"([^"]+)"/.exec(text)?.[1];
          if (runId) callsPerRun.set(runId, (callsPerRun.get(runId) ?? 0) + 1);
          if (problems.length) callProblems.push(problems.join('; '));
        },
      },
    ],
  });
  const deadline = setTimeout(() => instance.stop(), durationS * 1000);
  const result = await instance;
  clearTimeout(deadline);
  clearInterval(sampler);
  samples.push({ calls: checked, ...workerdRssKib(pgid) });
  checkpoint(checked);
  await measuring;
  const stoppedByTimeBound = result.requests.total < calls;
  const cutOff = stoppedByTimeBound ? eventsPerCall(steps) * Math.ceil(connections / runs.length) : 0;
  const logs = await checkRunLogs(base, headers, runs, callsPerRun, steps, cutOff);
  const secondHalf = checkpoints.filter((point) => point.calls >= checked / 2);
  const mib = (kib) => Number((kib / 1024).toFixed(1));
  const afterGc = {
    calls: checkpoints.map((point) => point.calls).join(' '),
    liveHeapMiB: checkpoints.map((point) => mib(point.heap)).join(' '),
    runtimeRssMiB: checkpoints.map((point) => mib(point.runtime)).join(' '),
    heapSecondHalfKiBPerCall: Number(slope(secondHalf, 'heap').toFixed(3)),
    rssSecondHalfKiBPerCall: Number(slope(secondHalf, 'runtime').toFixed(2)),
  };
  const bounded =
    secondHalf.length >= 3 &&
    afterGc.heapSecondHalfKiBPerCall <= heapBound &&
    afterGc.rssSecondHalfKiBPerCall <= rssBound;
  const errors = result.errors + result.timeouts + result.non2xx;
  const figures = {
    calls: result.requests.total,
    checkedStreams: checked,
    seconds: Number((result.duration ?? 0).toFixed(1)),
    callsPerSecond: Number(result.requests.average.toFixed(0)),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    errors,
    stoppedByTimeBound,
    brokenStreams: callProblems.length,
    runLogEvents: logs.events,
    runLogGapsOrRepeats: logs.problems.length,
    workerdRuntimeAfterGc: afterGc,
    workerdRuntimeRaw: memoryFigures(samples, 'runtime', checked),
    wranglerDevProxyRaw: memoryFigures(samples, 'proxy', checked),
    memoryBounded: bounded,
  };
  const verdict =
    `memory ${bounded ? 'bounded' : 'NOT bounded'}: over the second half of the calls, after a full GC, the live ` +
    `JS heap grew ${afterGc.heapSecondHalfKiBPerCall} KiB per call (limit ${heapBound}) and the ` +
    `runtime's RSS ${afterGc.rssSecondHalfKiBPerCall} KiB per call (limit ${rssBound}), ` +
    `over ${secondHalf.length} checkpoints (at least 3 needed)`;
  const problems = [...callProblems, ...logs.problems];
  if (errors > 0) problems.unshift(`memory phase: ${errors} errors, timeouts or non-2xx answers`);
  if (checked < Math.min(calls, 1)) problems.unshift('memory phase: no call was checked');
  return { figures, verdict, bounded, problems };
}
