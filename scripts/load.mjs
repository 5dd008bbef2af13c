// `pnpm load`: autocannon against the example Worker (packages/edge) under `wrangler dev` on
// loopback. Bounded: CALLS calls (default 2,000) or DURATION_S seconds (default 60), whichever
// comes first. Every call streams its events as SSE; each stream is checked (seq strictly rising,
// progress 1..steps with none lost or repeated, one result), then each run's whole event log is
// read back and checked for gaps and duplicates. workerd's RSS is sampled from /proc.
// Exits non-zero on any error, loss or duplicate. Not part of `npm test`: it takes about a minute.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CALLS = Number(process.env.CALLS ?? 2000);
const DURATION_S = Number(process.env.DURATION_S ?? 60);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const STEPS = Number(process.env.STEPS ?? 5);
const PORT = Number(process.env.PORT ?? 8787 + Math.floor(Math.random() * 1000));
const TOKEN = `load-${Math.random().toString(36).slice(2)}`;
const base = `http://127.0.0.1:${PORT}`;
const headers = { authorization: `Bearer ${TOKEN}`, 'x-toolctx-principal': 'load' };

/** Starts `wrangler dev` in a process group of its own, so one signal stops node, esbuild and workerd. */
function startWorker() {
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

/** RSS in KiB of every workerd process in the group. */
function workerdRssKib(pgid) {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid || !stat.includes('(workerd)')) continue;
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/** [{ id, event, data }] of an SSE body. */
function parseSse(text) {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const message = { data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') message.data += value;
        else if (field) message[field] = value;
      }
      return message;
    });
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

/** Ends each run and reads its whole log back: seq must run 1..N with no gap or repeat. */
async function checkRunLogs(runs) {
  const problems = [];
  let events = 0;
  for (const runId of runs) {
    await fetch(`${base}/runs/${runId}`, { method: 'DELETE', headers });
    const text = await (await fetch(`${base}/runs/${runId}/events`, { headers })).text();
    const seqs = parseSse(text)
      .filter((m) => m.id !== undefined)
      .map((m) => Number(m.id));
    events += seqs.length;
    seqs.forEach((seq, i) => {
      if (seq !== i + 1) problems.push(`${runId}: event ${i + 1} has seq ${seq}`);
    });
  }
  return { problems, events };
}

const { pgid, stop } = startWorker();
try {
  await waitUntilUp();
  const runs = await startRuns(CONNECTIONS);
  const rssBefore = workerdRssKib(pgid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, workerdRssKib(pgid));
  }, 250);
  let checked = 0;
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
          const problems = status === 200 ? checkCall(text) : [`status ${status}`];
          if (problems.length) callProblems.push(problems.join('; '));
        },
      },
    ],
  });
  const deadline = setTimeout(() => instance.stop(), DURATION_S * 1000);
  const result = await instance;
  clearTimeout(deadline);
  clearInterval(sampler);
  const rssAfter = workerdRssKib(pgid);
  const logs = await checkRunLogs(runs);
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
    workerdRssMiB: {
      before: Math.round(rssBefore / 1024),
      peak: Math.round(rssPeak / 1024),
      after: Math.round(rssAfter / 1024),
    },
  };
  console.log(JSON.stringify(figures, null, 2));
  for (const problem of [...callProblems, ...logs.problems].slice(0, 10)) console.error(problem);
  const ok =
    errors === 0 && callProblems.length === 0 && logs.problems.length === 0 && checked >= Math.min(CALLS, 1);
  process.exitCode = ok ? 0 : 1;
} finally {
  stop();
}
