// (h) Stalled readers: what readers of a run's event stream that stop reading cost the Worker.
// The chatty test Worker (test/chatty-worker) under `wrangler dev` on loopback; per scenario a
// fresh wrangler dev, a run, `readers` raw HTTP/1.1 readers of `GET /runs/:id/events` that read
// the first event and then stop (the socket paused: only the kernel's buffers take more), then one
// call reporting `events` progress events of 2 KB. The figures are the RSS of the workerd process
// that runs the Worker and its Durable Objects after a full garbage collection (what is held, not
// garbage V8 has yet to collect), before the call and after it with the readers still stalled, and
// its peak sampled every 100 ms. With `maxQueuedBytes` the bound is lifted to show what it holds
// back. Downstream of the Worker the kernel's socket buffers take about 8 MB per stalled reader
// on loopback (wrangler's proxy, then the client), outside any process's RSS.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerdRssKib } from '../../scripts/load/worker-process.mjs';

const edgeDir = fileURLToPath(new URL('../../packages/edge', import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** wrangler dev of the chatty Worker in a process group of its own; `stop()` ends the group. */
export async function startChattyWorker(port, vars = {}) {
  const state = mkdtempSync(join(tmpdir(), 'toolctx-chatty-'));
  const args = ['exec', 'wrangler', 'dev', '--config', '../../test/chatty-worker/wrangler.jsonc'];
  args.push('--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(port + 1));
  args.push('--persist-to', state, '--log-level', 'warn', '--show-interactive-dev-session=false');
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  const child = spawn('pnpm', args, {
    cwd: edgeDir,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    if (child.exitCode === null && child.signalCode === null) await exited;
    await sleep(300);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Gone.
    }
    rmSync(state, { recursive: true, force: true });
  };
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/tools`)).ok) return { base, pgid: child.pid, stop };
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  await stop();
  throw new Error('wrangler dev of the chatty Worker did not answer within 60 s');
}

export async function startRun(base) {
  const response = await fetch(`${base}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (response.status !== 201) throw new Error(`POST /runs answered ${response.status}`);
  return (await response.json()).runId;
}

/**
 * A reader of the run's events over a raw socket that reads until it has one whole event, then
 * stops reading: the socket is paused, so only the kernel's buffers take more. `resume(ms)` reads
 * on until the server ends the response (or `ms` pass) and answers whether it ended and the
 * response body, its chunked framing removed (the SSE text as far as it came).
 */
export function stalledReader(base, runId) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks = [];
    let ended = false;
    let stalled = false;
    let tail = '';
    socket.on('close', () => {
      ended = true;
    });
    socket.once('error', reject);
    socket.on('connect', () =>
      socket.write(
        `GET /runs/${runId}/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\naccept: text/event-stream\r\nconnection: close\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      // The last chunk of the response: it ended (the socket may stay open a while after).
      tail = (tail + chunk.toString('latin1')).slice(-7);
      if (tail === '\r\n0\r\n\r\n') ended = true;
      if (stalled || !/\nid: \d+\n[\s\S]*?\n\n/.test(Buffer.concat(chunks).toString('latin1'))) return;
      stalled = true;
      socket.pause();
      socket.on('error', () => {});
      resolve({
        async resume(ms) {
          socket.resume();
          const until = Date.now() + ms;
          while (!ended && Date.now() < until) await sleep(50);
          return { ended, body: unchunk(Buffer.concat(chunks)) };
        },
        destroy: () => socket.destroy(),
      });
    });
  });
}

/** The body of an HTTP/1.1 response with chunked framing, as far as it came, as text. */
function unchunk(raw) {
  let at = raw.indexOf('\r\n\r\n') + 4;
  const parts = [];
  while (at < raw.length) {
    const line = raw.indexOf('\r\n', at);
    if (line < 0) break;
    const size = Number.parseInt(raw.subarray(at, line).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(raw.subarray(line + 2, Math.min(raw.length, line + 2 + size)));
    at = line + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Samples the runtime workerd's RSS (KiB) every 100 ms until `stop()`; answers the samples. */
export function sampleRss(pgid) {
  const samples = [workerdRssKib(pgid).runtime];
  const timer = setInterval(() => samples.push(workerdRssKib(pgid).runtime), 100);
  return {
    stop() {
      clearInterval(timer);
      samples.push(workerdRssKib(pgid).runtime);
      return samples;
    },
  };
}

/**
 * The RSS (KiB) of the workerd process that runs the Worker, after a full garbage collection in
 * its isolate (through wrangler's inspector on `inspectorPort`).
 */
export function runtimeRssAfterGcKib(inspectorPort, base, pgid) {
  execFileSync(
    process.execPath,
    [
      '--experimental-websocket',
      '--no-warnings',
      fileURLToPath(new URL('./gc-isolate.mjs', import.meta.url)),
      String(inspectorPort),
      base,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], timeout: 30_000 },
  );
  return workerdRssKib(pgid).runtime;
}

/** One call of `chatter`: `events` reports of `bytes` bytes. Answers its ToolResult. */
export async function chatter(base, runId, events, bytes = 2048) {
  const response = await fetch(`${base}/runs/${runId}/calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool: 'chatter', args: { events, bytes } }),
  });
  return JSON.parse(await response.text());
}

/**
 * What `readers` stalled readers cost on a run reporting `events` events of 2 KB, in a fresh
 * wrangler dev: MiB of runtime RSS after GC before the call and after it, its peak, and how many
 * readers the Worker dropped (their stream ended once they read again).
 */
export async function stalledScenario({ port, readers, events, maxQueuedBytes }) {
  const worker = await startChattyWorker(port, maxQueuedBytes ? { MAX_QUEUED_BYTES: maxQueuedBytes } : {});
  const afterGc = () => runtimeRssAfterGcKib(port + 1, worker.base, worker.pgid) / 1024;
  try {
    // A warm-up call, so the baseline includes what the first call loads.
    await chatter(worker.base, await startRun(worker.base), 200);
    const runId = await startRun(worker.base);
    const stalled = await Promise.all(
      Array.from({ length: readers }, () => stalledReader(worker.base, runId)),
    );
    const beforeMiB = afterGc();
    const sampler = sampleRss(worker.pgid);
    const started = performance.now();
    // A call left unanswered (seen with the bound lifted and 20 readers: the Worker idle, the call
    // never settled) fails the scenario instead of holding the whole bench; run.mjs tries once more.
    let timer;
    const result = await Promise.race([
      chatter(worker.base, runId, events),
      new Promise((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`the chatter call with ${readers} stalled readers went unanswered for 180 s`)),
          180_000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    const callMs = performance.now() - started;
    const peakMiB = Math.max(...sampler.stop()) / 1024;
    const heldMiB = afterGc();
    let dropped = 0;
    for (const reader of stalled) {
      if ((await reader.resume(20_000)).ended) dropped++;
      reader.destroy();
    }
    return { readers, events, ok: result.ok === true, dropped, callMs, beforeMiB, heldMiB, peakMiB };
  } finally {
    await worker.stop();
  }
}
