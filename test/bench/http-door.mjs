// (e) Calls per second through the toolctx HTTP door (JSON, not SSE) against a bare hono route
// doing the same work, both in the one Worker of workerd-worker.mjs, load from autocannon on
// loopback. autocannon because it keeps `connections` requests in flight for a fixed time and
// counts what came back, with little cost of its own per request. Each run lives in its own
// Durable Object, which runs on one thread, so the calls are spread over one run per connection.
// The sides alternate in rounds so they share the machine's load; the figures are totals over the
// rounds, with workerd's CPU time per call beside them (less sensitive to other work than rates).
// The floor is the bare route plus one no-op RPC to a Durable Object per run: what any design that
// keeps a run in a Durable Object pays, so the door's ratio to it is what toolctx itself costs.
// Beside it, the floor of a design whose events are durable before it answers (the RPC makes one
// storage write), and one call taken apart inside the isolate (workerd-worker.mjs, /decompose).
import autocannon from 'autocannon';
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

export async function httpDoor(url, { connections = 8, seconds = 5, rounds = 2 } = {}) {
  const runs = await startRuns(url, connections);
  const check = await fetch(`${url}/door/runs/${runs[0]}/calls`, { method: 'POST', headers, body });
  const answer = await check.json();
  if (answer.ok !== true || answer.value.sum !== 3)
    throw new Error(`The door answered ${JSON.stringify(answer)}.`);
  const oneShot = await (await fetch(`${url}/door/calls`, { method: 'POST', headers, body })).json();
  if (oneShot.ok !== true || oneShot.value.sum !== 3)
    throw new Error(`POST /calls answered ${JSON.stringify(oneShot)}.`);
  const warm = { connections, seconds: 1 };
  await load(url, '/bare', runs, warm);
  await load(url, '/door', runs, warm);
  await load(url, '/floor', runs, warm);
  await load(url, '/floor-write', runs, warm);
  await load(url, '/door/calls', runs, warm);
  const totals = { door: [], bare: [], floor: [], floorWrite: [], oneShot: [] };
  for (let round = 0; round < rounds; round++) {
    totals.bare.push(await load(url, '/bare', runs, { connections, seconds }));
    totals.door.push(await load(url, '/door', runs, { connections, seconds }));
    totals.floor.push(await load(url, '/floor', runs, { connections, seconds }));
    totals.floorWrite.push(await load(url, '/floor-write', runs, { connections, seconds }));
    totals.oneShot.push(await load(url, '/door/calls', runs, { connections, seconds }));
  }
  const sum = (loads, key) => loads.reduce((total, one) => total + one[key], 0);
  const rate = (loads) => sum(loads, 'calls') / sum(loads, 'seconds');
  const cpu = (loads) => sum(loads, 'cpuMs') / sum(loads, 'calls');
  return {
    door: rate(totals.door),
    bare: rate(totals.bare),
    floor: rate(totals.floor),
    floorWrite: rate(totals.floorWrite),
    oneShot: rate(totals.oneShot),
    cpuMsPerCall: {
      door: cpu(totals.door),
      bare: cpu(totals.bare),
      floor: cpu(totals.floor),
      floorWrite: cpu(totals.floorWrite),
      oneShot: cpu(totals.oneShot),
    },
    decomposed: await (await fetch(`${url}/decompose?runId=${runs[0]}&n=1000`)).json(),
    connections,
    seconds: seconds * rounds,
  };
}
