// workerd benchmarks (d, e): bundles workerd-worker.mjs with esbuild (programmatic Miniflare does
// not resolve bare imports) and runs it in workerd through Miniflare, listening on loopback.
// Miniflare rather than `wrangler dev`: one workerd started from this process, no file watcher or
// second proxy process in the measured path. KV, R2 and the Durable Objects' SQLite live in a
// fresh directory on tmpfs: locally workerd fsyncs every storage commit on the isolate's thread,
// so on a disk the figures would measure the disk (and whoever else is using it), not the code.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

const benchObjects = {
  RUNS: { className: 'BenchRunHost', useSQLite: true },
  FLOOR: { className: 'BenchFloor' },
  FLOOR_WRITE: { className: 'BenchFloorWrite', useSQLite: true },
  FLOOR_LOG: { className: 'BenchFloorLog', useSQLite: true },
};

/** Runs `body(url)` against the bench Worker in a fresh workerd; `url` is its loopback origin. */
export function withBenchWorker(body) {
  return withWorker('./workerd-worker.mjs', benchObjects, body, []);
}

/**
 * Runs `body(url)` against the Worker `entry` (relative to this folder) in a fresh workerd, with
 * the Durable Object bindings `durableObjects` (Miniflare's shape), KV `KV` and R2 `BUCKET`, and
 * `flags` beside `enable_request_signal` (with `nodejs_compat`, `node:*` imports stay imports).
 */
export async function withWorker(entry, durableObjects, body, flags) {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    external: flags.includes('nodejs_compat') ? ['cloudflare:*', 'node:*'] : ['cloudflare:*'],
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const storage = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'toolctx-bench-'));
  const mf = new Miniflare({
    modules: true,
    script: bundled.outputFiles[0].text,
    compatibilityDate: '2026-04-20',
    compatibilityFlags: ['enable_request_signal', ...flags],
    host: '127.0.0.1',
    port: 0,
    kvNamespaces: ['KV'],
    r2Buckets: ['BUCKET'],
    durableObjects,
    defaultPersistRoot: storage,
  });
  try {
    const url = await mf.ready;
    return await body(url.origin);
  } finally {
    await mf.dispose();
    rmSync(storage, { recursive: true, force: true });
  }
}

/**
 * CPU milliseconds (user + system) used so far by the workerd processes this process started, or
 * null off Linux. Under load from other work, CPU per call varies less than calls per second.
 */
export function workerdCpuMs() {
  if (!existsSync('/proc/self/stat')) return null;
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the name: [1] the parent pid, [11] and [12] user and system time in ticks of 10 ms.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (stat.includes('(workerd)') && Number(fields[1]) === process.pid) {
        total += (Number(fields[11]) + Number(fields[12])) * 10;
      }
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

export const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' };
