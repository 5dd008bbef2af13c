// (g) Cold start: what the example Worker (packages/edge) costs before its first call, beside the
// smallest hono Worker (bare-hono-worker.mjs). Size is what `wrangler deploy --dry-run --minify`
// uploads (wrangler's own min and gzip figures); load time is from starting a fresh workerd with
// the uploaded script (Miniflare, as workerd.mjs does) to its first answered request, so the
// figure is workerd's, without wrangler dev's bundling and file watcher. The two Workers take turns
// so they share the machine's load; the medians are over the starts. The heaviest parts come from
// the esbuild metafile wrangler writes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { median } from './measure.mjs';
import { workerdCpuMs } from './workerd.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const wrangler = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');
const quiet = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' };

/** `wrangler deploy --dry-run` of `config`: the script, wrangler's sizes in KiB and the metafile. */
function dryRun(config, outdir) {
  const metafile = join(outdir, 'meta.json');
  const printed = execFileSync(
    process.execPath,
    [
      wrangler,
      'deploy',
      '--dry-run',
      '--minify',
      '--config',
      config,
      '--outdir',
      outdir,
      '--metafile',
      metafile,
    ],
    { cwd: dirname(config), env: quiet, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const sizes = printed.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
  if (!sizes) throw new Error(`wrangler printed no upload size:\n${printed}`);
  const meta = JSON.parse(readFileSync(metafile, 'utf8'));
  const [path, output] = Object.entries(meta.outputs).find(([name]) => name.endsWith('.js'));
  return {
    script: readFileSync(resolve(dirname(config), path), 'utf8'),
    minKiB: Number(sizes[1]),
    gzipKiB: Number(sizes[2]),
    parts: heaviestParts(output, dirname(config)),
  };
}

/**
 * The heaviest packages (our own code by folder, as sizes.mjs names them) by share of the minified
 * script, and the heaviest folders inside the heaviest package, which is where a cut would start.
 */
function heaviestParts(output, base) {
  const byPart = new Map();
  const inside = new Map();
  let total = 0;
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const absolute = resolve(base, path);
    const dependency = absolute.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)(.*)/);
    const own = absolute.match(/packages\/([^/]+)\/(?:src|dist)\/([^/.]+)/);
    const part = dependency ? dependency[1] : own ? `${own[1]}/${own[2]}` : path;
    byPart.set(part, (byPart.get(part) ?? 0) + bytesInOutput);
    if (dependency) {
      const folder = `${part}/${dirname(dependency[2])}`;
      inside.set(folder, (inside.get(folder) ?? 0) + bytesInOutput);
    }
    total += bytesInOutput;
  }
  const share = ([name, bytes]) => `${name} ${Math.round((100 * bytes) / total)}%`;
  const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
  const top = sorted(byPart).slice(0, 4);
  const folders = sorted(inside).filter(([folder]) => folder.startsWith(`${top[0][0]}/`));
  return { packages: top.map(share), topFolders: folders.slice(0, 3).map(share) };
}

// The script as one listed module: given `script`, Miniflare parses it in Node to find its imports,
// a cost (up to seconds for the example Worker on a busy machine) that is Miniflare's, not workerd's.
const asModule = (script) => [{ type: 'ESModule', path: 'worker.js', contents: script }];

/**
 * From starting workerd with `options` to the answer of `GET path`: the wall milliseconds, and the
 * CPU milliseconds workerd spent meanwhile (which other work on the machine disturbs less).
 */
async function startToFirstAnswer(options, path, storage) {
  const started = performance.now();
  const mf = new Miniflare({ ...options, host: '127.0.0.1', port: 0, defaultPersistRoot: storage });
  try {
    const url = await mf.ready;
    const response = await fetch(new URL(path, url));
    await response.arrayBuffer();
    if (response.status >= 500) throw new Error(`GET ${path} answered ${response.status} on a cold start.`);
    return { wallMs: performance.now() - started, cpuMs: workerdCpuMs() };
  } finally {
    await mf.dispose();
  }
}

export async function coldStart({ starts = 5 } = {}) {
  const work = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'toolctx-cold-'));
  try {
    const bareConfig = join(work, 'bare', 'wrangler.json');
    mkdirSync(dirname(bareConfig));
    writeFileSync(
      bareConfig,
      JSON.stringify({
        name: 'bare-hono',
        main: here('./bare-hono-worker.mjs'),
        compatibility_date: '2026-04-20',
      }),
    );
    const bare = dryRun(bareConfig, join(work, 'bare', 'out'));
    const example = dryRun(here('../../packages/edge/wrangler.jsonc'), join(work, 'example', 'out'));
    // The bindings of packages/edge/wrangler.jsonc, for both: the bare Worker has empty classes for them.
    const common = {
      compatibilityDate: '2026-04-20',
      compatibilityFlags: ['enable_request_signal'],
      kvNamespaces: ['ARTIFACT_META'],
      r2Buckets: ['ARTIFACTS'],
      durableObjects: {
        RUNS: { className: 'RunHost', useSQLite: true },
        ADMISSIONS: { className: 'ArtifactAdmissions', useSQLite: true },
        IDENTITY_STATE: { className: 'IdentityState', useSQLite: true },
      },
    };
    const sides = {
      bare: { options: { ...common, modules: asModule(bare.script) }, path: '/' },
      // No token is set, so the first request is the door's refusal, answered by the whole stack.
      example: { options: { ...common, modules: asModule(example.script) }, path: '/runs' },
    };
    const samples = { bare: [], example: [] };
    if (workerdCpuMs() === null)
      throw new Error('The cold-start benchmark reads CPU times from /proc (Linux).');
    // One start each first, so both find the workerd binary and Node's modules in the page cache.
    for (let i = -1; i < starts; i++) {
      for (const [name, side] of Object.entries(sides)) {
        const sample = await startToFirstAnswer(side.options, side.path, join(work, `${name}-${i + 1}`));
        if (i >= 0) samples[name].push(sample);
      }
    }
    const result = (side, name) => ({
      minKiB: side.minKiB,
      gzipKiB: side.gzipKiB,
      parts: side.parts,
      loadMs: median(samples[name].map((sample) => sample.wallMs)),
      loadCpuMs: median(samples[name].map((sample) => sample.cpuMs)),
    });
    return { bare: result(bare, 'bare'), example: result(example, 'example'), starts };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
