// The Worker under load: `wrangler dev` of scripts/load/worker.js (the example Worker plus a route
// that reads a run's storage size) on loopback, the RSS of its workerd processes, and the
// runtime's inspector for forced garbage collections.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Starts `wrangler dev` in a process group of its own, so one signal stops node, esbuild and
 * workerd; `vars` go in as `--var`. Answers the base URL, the headers that authenticate as
 * `principal`, the group id (`pgid()`, new after a restart), `restart` (same port and state
 * directory, as a deploy or an eviction restarts every object) and `stop`.
 */
export function startWorker({ port, inspectorPort, token, vars }) {
  // Its own state directory, removed at the end: wrangler's default (.wrangler/state) would keep
  // every run's Durable Object database from every load test.
  const state = mkdtempSync(join(tmpdir(), 'toolctx-load-'));
  const args = ['exec', 'wrangler', 'dev', '--config', '../../scripts/load/wrangler.jsonc'];
  args.push('--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort));
  args.push('--persist-to', state, '--log-level', 'warn', '--show-interactive-dev-session=false');
  for (const [name, value] of Object.entries({ TOOLCTX_TOKEN: token, ...vars }))
    args.push('--var', `${name}:${value}`);
  let child;
  let stopping = false;
  const launch = () => {
    child = spawn('pnpm', args, {
      cwd: join(root, 'packages/edge'),
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
    });
    child.on('exit', (code) => {
      if (!stopping) {
        console.error(`wrangler dev exited (${code}) before the load test ended`);
        process.exit(1);
      }
    });
  };
  const kill = async () => {
    stopping = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    if (child.exitCode === null && child.signalCode === null) await exited;
  };
  const stop = () => {
    stopping = true;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    rmSync(state, { recursive: true, force: true });
  };
  launch();
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  const base = `http://127.0.0.1:${port}`;
  // The example Worker's token of `principal` (packages/edge/src/example/token-auth.ts).
  const headersAs = (principal) => ({
    authorization: `Bearer ${principal}.${createHmac('sha256', token).update(principal).digest('base64url')}`,
  });
  const restart = async () => {
    await kill();
    // workerd may outlive its parent by a moment: wait until the port is free again.
    while (
      await fetch(`${base}/`).then(
        () => true,
        () => false,
      )
    )
      await new Promise((r) => setTimeout(r, 200));
    stopping = false;
    launch();
    await waitUntilUp(base, headersAs('load'));
  };
  return { base, headersAs, pgid: () => child.pid, restart, stop };
}

export async function waitUntilUp(base, headers) {
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
export function workerdRssKib(pgid) {
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
export async function connectInspector({ inspectorPort, base, headers }) {
  const socket = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`, {
    headers: { origin: 'https://devtools.devprod.cloudflare.dev' },
  });
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error(`no inspector on port ${inspectorPort}`));
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

/** Bytes of a run's Durable Object database, through the load Worker's own route. */
export async function storageBytes(base, headers, runId) {
  const response = await fetch(`${base}/__load/storage/${runId}`, { headers });
  if (!response.ok) throw new Error(`storage of ${runId}: status ${response.status}`);
  return (await response.json()).bytes;
}

/** Bytes of the Durable Object that counts the live runs of the identity `headers` name. */
export async function identityStorageBytes(base, headers) {
  const response = await fetch(`${base}/__load/identity-storage`, { headers });
  if (!response.ok) throw new Error(`identity storage: status ${response.status}`);
  return (await response.json()).bytes;
}
