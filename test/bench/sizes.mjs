// Bundle sizes (minified, gzip level 9, esbuild) of what users ship, against their budgets. Part
// of the test command (the `test` script of @toolctx/tests): prints the table and exits non-zero
// when a bundle is over budget. `node test/bench/sizes.mjs --json` prints the rows for the bench.
import { fileURLToPath } from 'node:url';
import { browserBudgets, minGzipSize } from '../../packages/browser/scripts/size.mjs';

const root = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const KiB = 1024;

// esbuild as wrangler bundles a Worker (see /work/shared/TOOLCHAIN.md).
const workerBuild = {
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  external: ['cloudflare:*', 'node:*'],
};

const widget = browserBudgets.find((budget) => budget.name === 'status widget');

/** Every bundle measured; `maxBytes` is the budget the test command enforces (issue 10). */
export const bundles = [
  // zod is a dev dependency of core (the user's tools bring it), so it is left out. The main entry
  // is the runtime and the contract types; the guards only some calls meet (ctx.fetch's egress
  // guard, artifact wants, credentials, the output spill) load on first use, in chunks of their own.
  {
    name: '@toolctx/core (main entry: the runtime)',
    entry: 'packages/core/src/index.ts',
    // 15.28 KiB measured with ctx.log (synchronous, so it cannot load on first use: +0.8 KiB).
    // 17: the bounded, iterative plain-data check (issue 33) added half a KiB; issue 38 revisits budgets.
    // 18: call handles, run.cancel/decide and recovery after a restart (issue 34) added 0.7 KiB,
    // kept on the main path: a wake must settle cut-off calls before it answers anything; and
    // taint held per key and released with its run (issue 34) 0.3 KiB: 18.5.
    // ctx.ask and run.asks/answer (issue 35; the checks and the run's side load on first use) 0.6 KiB: 19.
    // ctx.meta and run.resume's own copy of the arguments (issue 37) 45 bytes: 18.99; the AI SDK's
    // ask-before-execute rule (runtime/needs-approval.ts) is imported by @toolctx/core/ai-sdk only.
    // Issue 38 asks for 5–10% headroom: each budget above was set to the size measured, so this
    // one is about the size × 1.07 (19.24 KiB, 6.5% under it, once the call store's ring and
    // index, the settled record and a ToolContext that holds its Attempt added 0.25 KiB). Moving code behind import() did not make it
    // smaller: the call guards as a chunk of their own took 2 KiB off the minified entry and
    // added 0.28 KiB of gzip (the code they share with the entry moved to a chunk of its own).
    maxBytes: 20.5 * KiB,
    options: { external: ['zod'] },
  },
  {
    name: '@toolctx/core: createRuntime + defineTool',
    contents: "export { createRuntime, defineTool } from './packages/core/src/index.ts';",
    options: { external: ['zod'] },
  },
  { name: '@toolctx/core/status', entry: 'packages/core/src/status/index.ts' },
  { name: '@toolctx/core/memory', entry: 'packages/core/src/memory/index.ts' },
  { name: '@toolctx/core/ports', entry: 'packages/core/src/ports/index.ts' },
  { name: '@toolctx/core/sse', entry: 'packages/core/src/sse/index.ts' },
  // What the OpenTelemetry sink adds to a host that already ships @opentelemetry/api.
  {
    name: '@toolctx/core/otel',
    entry: 'packages/core/src/otel/index.ts',
    options: { external: ['@opentelemetry/api'] },
  },
  {
    name: '@toolctx/browser/status (widget)',
    entry: fileURLToPath(new URL(widget.entry, new URL('../../packages/browser/scripts/', import.meta.url))),
    maxBytes: widget.maxBytes,
  },
  { name: '@toolctx/browser', entry: 'packages/browser/src/index.ts' },
  { name: '@toolctx/browser/worker', entry: 'packages/browser/src/worker-door/index.ts' },
  { name: '@toolctx/browser/remote', entry: 'packages/browser/src/remote/index.ts' },
  {
    name: 'example Worker (edge/src/worker.ts)',
    entry: 'packages/edge/src/worker.ts',
    maxBytes: 300 * KiB,
    // wrangler bundles a Worker into one file: code behind import() is inlined, not split.
    options: { ...workerBuild, splitting: false },
  },
  // What serving MCP adds to a Worker: the door and its session object, with the MCP SDK and zod
  // (the example Worker above has no MCP door). Measured, no budget yet (design note R2).
  {
    name: 'MCP Worker (mountMcp + createMcpSession)',
    contents:
      "export { mountMcp } from './packages/edge/src/index.ts'; export { createMcpSession } from './packages/edge/src/durable-objects/index.ts';",
    options: { ...workerBuild, splitting: false },
  },
];

/** Measures every bundle; each row says which packages weigh most in it. */
export async function measureBundles() {
  const rows = [];
  for (const bundle of bundles) {
    const { minBytes, gzipBytes, lazyGzipBytes, entryOutput } = bundle.contents
      ? await minGzipSize(undefined, {
          ...bundle.options,
          entryPoints: undefined,
          stdin: { contents: bundle.contents, resolveDir: root(''), loader: 'ts' },
        })
      : await minGzipSize(bundle.entry.startsWith('/') ? bundle.entry : root(bundle.entry), bundle.options);
    rows.push({ ...bundle, minBytes, gzipBytes, lazyGzipBytes, heaviest: heaviestPackages(entryOutput) });
  }
  return rows;
}

/** The shares of the minified output the three heaviest packages (or our folders) make up. */
function heaviestPackages(output) {
  const byPackage = new Map();
  let total = 0;
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/);
    // Our own code is grouped by folder (core/policy, edge/http) to show where it weighs.
    const own = path.match(/packages\/([^/]+)\/(?:src|dist)\/([^/.]+)/);
    const name = match ? match[1] : own ? `${own[1]}/${own[2]}` : path;
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    total += bytesInOutput;
  }
  return [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, bytes]) => `${name} ${Math.round((100 * bytes) / total)}%`)
    .join(', ');
}

export function sizeTable(rows) {
  const lines = [
    '| bundle | min | min+gzip | loaded on first use (min+gzip) | budget | verdict | largest parts (share of min) |',
    '|---|---:|---:|---:|---:|---|---|',
  ];
  for (const row of rows) {
    const verdict = !row.maxBytes ? '' : row.gzipBytes > row.maxBytes ? '**OVER budget**' : 'within';
    lines.push(
      `| ${row.name} | ${kib(row.minBytes)} | ${kib(row.gzipBytes)} | ${row.lazyGzipBytes ? kib(row.lazyGzipBytes) : '—'} | ` +
        `${row.maxBytes ? kib(row.maxBytes) : '—'} | ${verdict} | ${row.heaviest} |`,
    );
  }
  return lines.join('\n');
}

const kib = (bytes) => `${(bytes / KiB).toFixed(2)} KiB`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await measureBundles();
  console.log(sizeTable(rows));
  const over = rows.filter((row) => row.maxBytes && row.gzipBytes > row.maxBytes);
  if (over.length > 0) {
    console.error(
      `Over budget: ${over.map((row) => row.name).join(', ')}. Budgets live in test/bench/sizes.mjs.`,
    );
    process.exit(1);
  }
}
