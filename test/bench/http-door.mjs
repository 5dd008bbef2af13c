// (e) Calls per second through the toolctx HTTP door (JSON, not SSE) against a bare hono route
// doing the same work, both in the one Worker of workerd-worker.mjs, load from autocannon on
// loopback. autocannon because it keeps `connections` requests in flight for a fixed time and
// counts what came back, with little cost of its own per request. Each run lives in its own
// Durable Object, which runs on one thread, so the calls are spread over one run per connection.
// The sides take turns in rounds so they share the machine's load; each figure is the median over
// the rounds, with workerd's CPU time per call beside it (less sensitive to other work than rates).
// The floor is the bare route plus one no-op RPC to a Durable Object per run: what any design that
// keeps a run in a Durable Object pays, so the door's ratio to it is what toolctx itself costs.
// Beside it, the floor of a design whose events are durable before it answers (the RPC makes one
// storage write), the floor that does by hand the storage work the run route must (its events,
// their trimming and the call's record), and one call taken apart inside the isolate (workerd-worker.mjs, /decompose).
import autocannon from 'autocannon';
import { median } from './measure.mjs';
import { headers, workerdCpuMs } from './workerd.mjs';

const body = JSON.stringify({ tool: 'add', args: { a: 1, b: 2 } });

async function startRuns(url, count) {
  const runs = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${url}/door/runs`, { method: 'POST', headers, body: '{}' });
    if (response.status !== 201) throw new Error(`POST /runs failed: ${await response.text()}`);
    runs.push((await response.json()).runId);
  }
  return runs;
}

/** A call's path: `prefix`/runs/:id/calls, or `prefix` itself for the one-shot route (no run). */
const callPath = (prefix, runId) => (prefix.endsWith('/calls') ? prefix : `${prefix}/runs/${runId}/calls`);

/** Calls answered 200 by `prefix`/runs/:id/calls during `seconds`, and workerd's CPU time meanwhile. */
async function load(url, prefix, runs, { connections, seconds }) {
  let next = 0;
  const cpuBefore = workerdCpuMs();
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers,
        body,
        setupRequest: (request) => ({
          ...request,
          path: callPath(prefix, runs[next++ % runs.length]),
        }),
      },
    ],
  });
  if (result.non2xx || result.errors) {
    throw new Error(`${prefix}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load.`);
  }
  const cpuMs = cpuBefore === null ? Number.NaN : workerdCpuMs() - cpuBefore;
  return { calls: result['2xx'], seconds: result.duration, cpuMs };
}

export async function httpDoor(url, { connections = 8, seconds = 3, rounds = 5 } = {}) {
  const runs = await startRuns(url, connections);
  const check = await fetch(`${url}/door/runs/${runs[0]}/calls`, { method: 'POST', headers, body });
  const answer = await check.json();
  if (answer.ok !== true || answer.value.sum !== 3)
    throw new Error(`The door answered ${JSON.stringify(answer)}.`);
  const oneShot = await (await fetch(`${url}/door/calls`, { method: 'POST', headers, body })).json();
  if (oneShot.ok !== true || oneShot.value.sum !== 3)
    throw new Error(`POST /calls answered ${JSON.stringify(oneShot)}.`);
  const sides = {
    bare: '/bare',
    door: '/door',
    floor: '/floor',
    floorWrite: '/floor-write',
    floorLog: '/floor-log',
    oneShot: '/door/calls',
  };
  for (const prefix of Object.values(sides)) await load(url, prefix, runs, { connections, seconds: 1 });
  // The sides take turns in each round; a ratio is the median of the rounds' ratios, each of two
  // sides measured seconds apart, so a slow patch of a shared machine weighs on both.
  const measured = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [side, prefix] of Object.entries(sides)) {
      const one = await load(url, prefix, runs, { connections, seconds });
      measured[side].push({ rate: one.calls / one.seconds, cpu: one.cpuMs / one.calls });
    }
  }
  const of = (side, key) => median(measured[side].map((one) => one[key]));
  const ratioOf = (a, b) => median(measured[a].map((one, round) => one.rate / measured[b][round].rate));
  const cpuRatioOf = (a, b) => median(measured[a].map((one, round) => measured[b][round].cpu / one.cpu));
  return {
    ...Object.fromEntries(Object.keys(sides).map((side) => [side, of(side, 'rate')])),
    cpuMsPerCall: Object.fromEntries(Object.keys(sides).map((side) => [side, of(side, 'cpu')])),
    ratios: {
      doorToBare: ratioOf('door', 'bare'),
      doorToFloor: ratioOf('door', 'floor'),
      doorToFloorWrite: ratioOf('door', 'floorWrite'),
      doorToFloorLog: ratioOf('door', 'floorLog'),
      cpuFloorLogToDoor: cpuRatioOf('door', 'floorLog'),
      floorWriteToFloor: ratioOf('floorWrite', 'floor'),
      oneShotToBare: ratioOf('oneShot', 'bare'),
      cpuFloorWriteToDoor: cpuRatioOf('door', 'floorWrite'),
      cpuFloorToDoor: cpuRatioOf('door', 'floor'),
    },
    decomposed: await (await fetch(`${url}/decompose?runId=${runs[0]}&n=1000`)).json(),
    connections,
    seconds,
    rounds,
  };
}
