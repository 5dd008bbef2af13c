// The size budget for what ships to browsers: each entry bundled with @toolctx/core (only the parts
// it pulls in), minified and gzipped. Fails over budget so the test command does. `minGzipSize` is
// also what test/bench/sizes.mjs measures every bundle with, so both agree on what a size is.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The browser entries with a budget, paths relative to this file. */
export const browserBudgets = [
  // 7.22 KiB measured with the per-line actions (Cancel, Approve and Deny) and the `interrupted`
  // template (26 bytes). 9.59 KiB with the form of a tool's ask (issue 35): a waiting ask's words
  // in core/status (159 bytes) and the form (2,276 bytes: a native control per field type, the
  // URL ask's checked link, a refusal shown, a broken schema survived, their styles). Kept in the
  // widget rather than loaded on first ask: a line shows its form the moment its tool asks.
  // 9.70 KiB once a URL ask's page is read from the run's open asks rather than its events (an
  // authorization link reaches only those who may answer); 9.92 KiB once a widget attached again
  // to a run puts the calls it already had open where they are (issue 37: a remount). 9.99 KiB
  // once <toolctx-status> has `options` as an accessor (Svelte 5 sets a prop as a property only
  // through a setter) and takes up properties set before its definition. 10.0: 12 bytes to spare.
  // Issue 38 wants 5-10% headroom from smaller code: one element maker for the widget's parts and
  // the actions' abilities read in a loop took 9.98 to 9.88 KiB; issue 39's writes of lines in view
  // only (an IntersectionObserver: the widget's main-thread cost at 50 busy calls) put it at 10.03.
  // No further cut came without dropping behaviour, so the budget is about that size × 1.07: 10.72 (6.9% headroom).
  // 10.21 once a line held by the 100 ms limit is woken by a timer rather than a frame callback every
  // frame (no frame is asked for a report that only changes held-back text): 4.8% headroom.
  { name: 'status widget', entry: '../src/status/index.ts', maxBytes: 10.72 * 1024 },
];

/**
 * Bundles one entry with esbuild (minified, browser ESM unless `options` says otherwise) and
 * returns its minified and min+gzip sizes in bytes, and the entry's metafile output for who-weighs-what. Code
 * behind a dynamic `import()` goes to chunks of its own, as a page's bundler splits it: the sizes
 * are of what loads up front (each file gzipped on its own), `lazyGzipBytes` of the rest.
 */
export async function minGzipSize(entryPath, options = {}) {
  const result = await build({
    entryPoints: [entryPath],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
    ...options,
  });
  const gzipBytes = (file) => gzipSync(file.contents, { level: 9 }).length;
  const { outputs } = result.metafile;
  // Chunks behind `import()` name an entryPoint too; the bundle's own is the one asked for. What
  // loads up front is that chunk and the chunks it imports statically; the rest waits for import().
  const asked = entryPath ? relative(process.cwd(), entryPath) : '<stdin>';
  const entryKey = Object.keys(outputs).find((key) => outputs[key].entryPoint === asked);
  const upFront = new Set([entryKey]);
  for (const key of upFront)
    for (const { path, kind } of outputs[key].imports)
      if (kind === 'import-statement' && path in outputs) upFront.add(path);
  const sum = (files) => files.reduce((total, file) => total + gzipBytes(file), 0);
  const isUpFront = (file) => upFront.has(relative(process.cwd(), file.path));
  return {
    minBytes: result.outputFiles.filter(isUpFront).reduce((total, file) => total + file.contents.length, 0),
    gzipBytes: sum(result.outputFiles.filter(isUpFront)),
    lazyGzipBytes: sum(result.outputFiles.filter((file) => !isUpFront(file))),
    entryOutput: outputs[entryKey],
  };
}

async function checkBrowserBudgets() {
  let over = false;
  for (const { name, entry, maxBytes } of browserBudgets) {
    const { minBytes, gzipBytes } = await minGzipSize(fileURLToPath(new URL(entry, import.meta.url)));
    const fits = gzipBytes <= maxBytes;
    over ||= !fits;
    console.log(
      `${fits ? 'ok  ' : 'OVER'} ${name}: ${(gzipBytes / 1024).toFixed(2)} KiB min+gzip ` +
        `(${(minBytes / 1024).toFixed(2)} KiB min), budget ${(maxBytes / 1024).toFixed(2)} KiB`,
    );
  }
  if (over) {
    console.error('A browser entry is over its size budget: see packages/browser/scripts/size.mjs.');
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await checkBrowserBudgets();
