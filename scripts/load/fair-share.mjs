// The fair-share phase of `pnpm load`: one identity floods `POST /calls` while another makes its
// calls one after another. The quiet identity's latency is measured alone, then under the flood;
// the flood runs FLOOD_CLIENTS clients at once (default 64, four times the limit of 16 calls in
// flight per identity), each calling again as soon as its call ends and, after a refusal, when
// Retry-After says (1 s), so its identity sits at its limit throughout. FLOOD_RETRY_MS sets a
// wait of its own instead: a client that ignores Retry-After floods with requests, not calls, and
// a limit on calls in flight cannot bound that (a rate limit in front of the Worker does).
import { percentile } from './checks.mjs';

const json = { 'content-type': 'application/json' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One JSON call to POST /calls, timed until its whole answer is read. */
async function timedCall(base, headers, args) {
  const started = performance.now();
  const response = await fetch(`${base}/calls`, {
    method: 'POST',
    headers: { ...headers, ...json },
    body: JSON.stringify({ tool: 'count_steps', args }),
  });
  const text = await response.text();
  return { ms: performance.now() - started, status: response.status, text };
}

/** `count` calls one after another as `headers`' identity: their latencies, and their problems. */
async function quietCalls(base, headers, count, args) {
  const latencies = [];
  const problems = [];
  for (let i = 0; i < count; i++) {
    const call = await timedCall(base, headers, args);
    latencies.push(call.ms);
    const result = call.status === 200 ? JSON.parse(call.text) : undefined;
    if (!result?.ok) problems.push(`quiet call: ${call.status} ${call.text.trim().slice(0, 200)}`);
  }
  return { latencies, problems, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** Starts the flood: `clients` loops of calls as `headers`' identity until `stop()`; counts what was admitted and refused. */
function startFlood(base, headers, { clients, retryMs, args }) {
  const figures = { admitted: 0, refused: 0, other: [] };
  let stopping = false;
  const loop = async () => {
    while (!stopping) {
      try {
        const response = await fetch(`${base}/calls`, {
          method: 'POST',
          headers: { ...headers, ...json },
          body: JSON.stringify({ tool: 'count_steps', args }),
        });
        if (response.status === 429) {
          figures.refused++;
          await response.text();
          await sleep(retryMs ?? Number(response.headers.get('retry-after')) * 1000);
          continue;
        }
        const text = await response.text();
        if (response.status === 200 && JSON.parse(text).ok) figures.admitted++;
        else figures.other.push(`${response.status} ${text.trim().slice(0, 200)}`);
      } catch (error) {
        figures.other.push(error.message);
      }
    }
  };
  const loops = Array.from({ length: clients }, loop);
  return {
    figures,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/**
 * The phase: in each of `rounds`, the quiet identity's latency alone, then beside the flood (once
 * the flooding identity is at its limit: its calls admitted and its next ones refused). The
 * figures are the medians of the rounds' percentiles, so one burst of other work on the machine
 * moves them less.
 */
export async function fairSharePhase({
  base,
  headersAs,
  floodClients,
  floodRetryMs,
  quietCount,
  rounds = 3,
}) {
  const quiet = headersAs('load-quiet');
  const flooder = headersAs('load-flood');
  // The quiet identity's calls: 5 steps 2 ms apart, a call that waits on its tool a little.
  const quietArgs = { steps: 5, delayMs: 2 };
  // The flood's: 20 steps 25 ms apart, about half a second each, reporting progress all along.
  const floodArgs = { steps: 20, delayMs: 25 };
  await quietCalls(base, quiet, 10, quietArgs); // warm-up
  const measured = [];
  const problems = [];
  let admitted = 0;
  let refused = 0;
  let seconds = 0;
  for (let round = 0; round < rounds; round++) {
    const alone = await quietCalls(base, quiet, quietCount, quietArgs);
    const flood = startFlood(base, flooder, {
      clients: floodClients,
      retryMs: floodRetryMs,
      args: floodArgs,
    });
    const deadline = performance.now() + 30_000;
    while (flood.figures.refused < floodClients && performance.now() < deadline) await sleep(50);
    const before = { ...flood.figures };
    const startedAt = performance.now();
    const flooded = await quietCalls(base, quiet, quietCount, quietArgs);
    seconds += (performance.now() - startedAt) / 1000;
    admitted += flood.figures.admitted - before.admitted;
    refused += flood.figures.refused - before.refused;
    await flood.stop();
    measured.push({ alone, flooded });
    problems.push(...alone.problems, ...flooded.problems);
    problems.push(
      ...flood.figures.other.map((problem) => `flood call (not the quiet identity's): ${problem}`),
    );
  }
  const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
  const figure = (side, p) => median(measured.map((m) => m[side][p]));
  const alone = { p50: figure('alone', 'p50'), p99: figure('alone', 'p99') };
  const flooded = { p50: figure('flooded', 'p50'), p99: figure('flooded', 'p99') };
  return {
    rounds,
    quietCount,
    floodClients,
    floodRetryMs,
    alone,
    flooded,
    ratio: { p50: flooded.p50 / alone.p50, p99: flooded.p99 / alone.p99 },
    // What the flood got while the quiet identity was measured.
    flood: { admittedPerSecond: admitted / seconds, refusedPerSecond: refused / seconds },
    quietProblems: problems.filter((problem) => problem.startsWith('quiet')),
    floodProblems: problems.filter((problem) => !problem.startsWith('quiet')),
  };
}
