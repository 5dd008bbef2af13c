// `pnpm load`: autocannon against the example Worker (packages/edge) under `wrangler dev` on
// loopback. Bounded: CALLS calls (default 2,000) or DURATION_S seconds (default 60), whichever
// comes first. Every call streams its events as SSE; each stream is checked (seq strictly rising,
// progress 1..steps with none lost or repeated, one result), then each run's whole event log is
// read back and checked: the kept window (the run host keeps the last 1,000 events) must run
// without a gap or repeat up to the run's last event, whose seq must equal what the streams saw.
//
// Memory: `wrangler dev` runs two workerd processes, the runtime (the Worker and its Durable
// Objects, started with --inspector-addr) and wrangler's dev proxy in front of it (not part of a
// deployment). RSS of each is sampled from /proc every 250 ms. V8 collects the garbage of
// finished calls late (likely memory outside the JS heap held by small JS objects, which V8 does
// not weigh as heap pressure: forced GCs cut the runtime's growth by most), so raw RSS keeps
// climbing long after nothing is retained.
// To tell garbage from retention, at every tenth of the calls the script asks the runtime's
// inspector (through wrangler's inspector port) for a full GC, then reads the isolate's live JS
// heap and the runtime's RSS: what survives a full GC is what is retained.
// Bounded means, over the second half of the calls (least squares on those checkpoints): the live
// JS heap grows at most HEAP_BOUND_KIB_PER_CALL (default 1) and the runtime's RSS after GC at most
// RSS_BOUND_KIB_PER_CALL (default 10) per call. The run that prompted this check grew about 41 KiB
// per call of raw RSS; a leak of a call's events or its stream is a straight line of that order,
// a filled cache or the allocator's high-water mark levels off. Leaks of a few hundred bytes a
// call are below what 2,000 calls can show: unit tests count retained entries for those
// (packages/edge/src/run-host/run-state.test.ts). Raw RSS and the proxy are printed, not judged.
// Exits non-zero on any error, loss, duplicate or unbounded growth. Not part of `npm test`: it
// takes about a minute.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
// The door's own SSE reader, from core's build (`pnpm build` makes it).
import { parseSse } from '../packages/core/dist/sse/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CALLS = Number(process.env.CALLS ?? 2000);
const DURATION_S = Number(process.env.DURATION_S ?? 60);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const STEPS = Number(process.env.STEPS ?? 5);
const HEAP_BOUND_KIB_PER_CALL = Number(process.env.HEAP_BOUND_KIB_PER_CALL ?? 1);
const RSS_BOUND_KIB_PER_CALL = Number(process.env.RSS_BOUND_KIB_PER_CALL ?? 10);
const PORT = Number(process.env.PORT ?? 8787 + Math.floor(Math.random() * 1000));
const INSPECTOR_PORT = PORT + 1;
const TOKEN = `load-${Math.random().toString(36).slice(2)}`;
const base = `http://127.0.0.1:${PORT}`;
const headers = { authorization: `Bearer ${TOKEN}`, 'x-toolctx-principal': 'load' };

/** Starts `wrangler dev` in a process group of its own, so one signal stops node, esbuild and workerd. */
function startWorker() {
  // Its own state directory, removed at the end: wrangler's default (.wrangler/state) would keep
  // every run's Durable Object database, about 1 MB each, from every load test.
  const state = mkdtempSync(join(tmpdir(), 'toolctx-load-'));
  const child = spawn(
    'pnpm',
    [
      'exec',
      'wrangler',
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(PORT),
      '--inspector-port',
      String(INSPECTOR_PORT),
      '--persist-to',
      state,
      '--var',
      `TOOLCTX_TOKEN:${TOKEN}`,
      '--log-level',
      'warn',
    ],
    {
      cwd: join(root, 'packages/edge'),
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
    },
  );
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`wrangler dev exited (${code}) before the load test ended`);
      process.exit(1);
    }
  });
  let stopping = false;
  const stop = () => {
    stopping = true;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    rmSync(state, { recursive: true, force: true });
  };
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  return { pgid: child.pid, stop };
}

async function waitUntilUp() {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/tools`, { headers })).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('wrangler dev did not answer within 60 s');
}

/** RSS in KiB of the group's workerd processes: the runtime (it has the inspector) and wrangler's dev proxy. */
function workerdRssKib(pgid) {
  const rss = { runtime: 0, proxy: 0 };
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid || !stat.includes('(workerd)')) continue;
      const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      const runtime = readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--inspector-addr');
      rss[runtime ? 'runtime' : 'proxy'] += kib;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return rss;
}

/**
 * A connection to the runtime's inspector through wrangler's inspector port (which wants a
 * DevTools origin). workerd answers inspector messages only when the isolate runs, so requests to
 * the Worker go with each one until it is answered.
 */
async function connectInspector() {
  const socket = new WebSocket(`ws://127.0.0.1:${INSPECTOR_PORT}/ws`, {
    headers: { origin: 'https://devtools.devprod.cloudflare.dev' },
  });
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error(`no inspector on port ${INSPECTOR_PORT}`));
  });
  let id = 0;
  const waiting = new Map();
  socket.onmessage = (message) => {
    const { id: answered, result } = JSON.parse(message.data);
    waiting.get(answered)?.(result);
    waiting.delete(answered);
  };
  const send = (method) =>
    new Promise((resolve, reject) => {
      const sent = ++id;
      waiting.set(sent, resolve);
      socket.send(JSON.stringify({ id: sent, method }));
      const poke = () => {
        if (!waiting.has(sent)) return;
        fetch(`${base}/tools`, { headers }).catch(() => {});
        setTimeout(poke, 200);
      };
      poke();
      setTimeout(
        () => waiting.delete(sent) && reject(new Error(`inspector: no answer to ${method}`)),
        20_000,
      );
    });
  await send('Runtime.enable');
  // Without it workerd never answers collectGarbage.
  await send('HeapProfiler.enable');
  return {
    /** Full GC, then the isolate's live JS heap in KiB. */
    async liveHeapKib() {
      await send('HeapProfiler.collectGarbage');
      return (await send('Runtime.getHeapUsage')).usedSize / 1024;
    },
    close: () => socket.close(),
  };
}

/** Least-squares slope of `key` (KiB) over `calls`, in KiB per call; 0 with fewer than 2 distinct points. */
function slope(samples, key) {
  const n = samples.length;
  const mx = samples.reduce((sum, s) => sum + s.calls, 0) / n;
  const my = samples.reduce((sum, s) => sum + s[key], 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const s of samples) {
    sxy += (s.calls - mx) * (s[key] - my);
    sxx += (s.calls - mx) ** 2;
  }
  return sxx === 0 ? 0 : sxy / sxx;
}

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

/** Problems with one call's stream, or [] when it is whole. */
function checkCall(text) {
  const messages = parseSse(text);
  const problems = [];
  const events = messages.filter((m) => m.event !== 'result').map((m) => JSON.parse(m.data));
  const results = messages.filter((m) => m.event === 'result');
  if (results.length !== 1) problems.push(`${results.length} results`);
  else if (!JSON.parse(results[0].data).ok) problems.push(`failed: ${results[0].data}`);
  for (let i = 1; i < events.length; i++) {
    if (events[i].seq <= events[i - 1].seq) problems.push(`seq ${events[i].seq} after ${events[i - 1].seq}`);
  }
  const progress = events.filter((e) => e.type === 'tool.progress').map((e) => e.data.n);
  if (progress.join() !== Array.from({ length: STEPS }, (_, i) => i + 1).join()) {
    problems.push(`progress n ${progress.join()}`);
  }
  const types = events.map((e) => e.type);
  if (types[0] !== 'tool.started' || types.at(-1) !== 'tool.finished') problems.push(`types ${types.join()}`);
  return problems;
}

async function startRuns(count) {
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
 * run.finished, whose seq must be 2 + (STEPS + 2) per call the streams saw in that run.
 */
async function checkRunLogs(runs, callsPerRun) {
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
    const seqs = messages.map((m) => Number(m.id));
    events += seqs.length;
    const expectedLast = 2 + (STEPS + 2) * (callsPerRun.get(runId) ?? 0);
    if (seqs.at(-1) !== expectedLast || messages.at(-1)?.event !== 'run.finished')
      problems.push(
        `${runId}: log ends at ${messages.at(-1)?.event} ${seqs.at(-1)}, expected run.finished ${expectedLast}`,
      );
    seqs.forEach((seq, i) => {
      if (i > 0 && seq !== seqs[i - 1] + 1) problems.push(`${runId}: seq ${seq} follows ${seqs[i - 1]}`);
    });
  }
  return { problems, events };
}

const { pgid, stop } = startWorker();
try {
  await waitUntilUp();
  const inspector = await connectInspector();
  const runs = await startRuns(CONNECTIONS);
  let checked = 0;
  const samples = [{ calls: 0, ...workerdRssKib(pgid) }];
  const sampler = setInterval(() => samples.push({ calls: checked, ...workerdRssKib(pgid) }), 250);
  const callsPerRun = new Map();
  // After a full GC, at 0 and each tenth of the calls: { calls, heap, runtime } in KiB.
  const checkpoints = [];
  let measuring = Promise.resolve();
  const checkpoint = (calls) => {
    measuring = measuring.then(async () => {
      const heap = await inspector.liveHeapKib();
      checkpoints.push({ calls, heap, runtime: workerdRssKib(pgid).runtime });
    });
  };
  checkpoint(0);
  await measuring;
  let next = 0;
  const callProblems = [];
  const body = JSON.stringify({ tool: 'count_steps', args: { steps: STEPS, delayMs: 0 } });
  // `amount` makes autocannon ignore `duration`, so the time bound is a timer that stops it.
  const instance = autocannon({
    url: base,
    connections: CONNECTIONS,
    amount: CALLS,
    requests: [
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
        setupRequest: (request) => ({ ...request, path: `/runs/${runs[next++ % runs.length]}/calls`, body }),
        onResponse: (status, text) => {
          checked++;
          if (checked % Math.ceil(CALLS / 10) === 0 && checked < CALLS) checkpoint(checked);
          const problems = status === 200 ? checkCall(text) : [`status ${status}`];
          const runId = /"runId":"([^"]+)"/.exec(text)?.[1];
          if (runId) callsPerRun.set(runId, (callsPerRun.get(runId) ?? 0) + 1);
          if (problems.length) callProblems.push(problems.join('; '));
        },
      },
    ],
  });
  const deadline = setTimeout(() => instance.stop(), DURATION_S * 1000);
  const result = await instance;
  clearTimeout(deadline);
  clearInterval(sampler);
  samples.push({ calls: checked, ...workerdRssKib(pgid) });
  checkpoint(checked);
  await measuring;
  inspector.close();
  const logs = await checkRunLogs(runs, callsPerRun);
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
    afterGc.heapSecondHalfKiBPerCall <= HEAP_BOUND_KIB_PER_CALL &&
    afterGc.rssSecondHalfKiBPerCall <= RSS_BOUND_KIB_PER_CALL;
  const errors = result.errors + result.timeouts + result.non2xx;
  const figures = {
    calls: result.requests.total,
    checkedStreams: checked,
    seconds: Number((result.duration ?? 0).toFixed(1)),
    callsPerSecond: Number(result.requests.average.toFixed(0)),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    errors,
    stoppedByTimeBound: result.requests.total < CALLS,
    brokenStreams: callProblems.length,
    runLogEvents: logs.events,
    runLogGapsOrRepeats: logs.problems.length,
    workerdRuntimeAfterGc: afterGc,
    workerdRuntimeRaw: memoryFigures(samples, 'runtime', checked),
    wranglerDevProxyRaw: memoryFigures(samples, 'proxy', checked),
    memoryBounded: bounded,
  };
  console.log(JSON.stringify(figures, null, 2));
  console.log(
    `memory ${bounded ? 'bounded' : 'NOT bounded'}: over the second half of the calls, after a full GC, the live ` +
      `JS heap grew ${afterGc.heapSecondHalfKiBPerCall} KiB per call (limit ${HEAP_BOUND_KIB_PER_CALL}) and the ` +
      `runtime's RSS ${afterGc.rssSecondHalfKiBPerCall} KiB per call (limit ${RSS_BOUND_KIB_PER_CALL}), ` +
      `over ${secondHalf.length} checkpoints (at least 3 needed)`,
  );
  for (const problem of [...callProblems, ...logs.problems].slice(0, 10)) console.error(problem);
  const ok =
    errors === 0 &&
    callProblems.length === 0 &&
    logs.problems.length === 0 &&
    checked >= Math.min(CALLS, 1) &&
    bounded;
  process.exitCode = ok ? 0 : 1;
} finally {
  stop();
}
