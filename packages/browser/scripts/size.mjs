// The size budget for what ships to browsers: each entry bundled with @toolctx/core (only the parts
// it pulls in), minified and gzipped. Fails over budget so the test command does. `minGzipSize` is
// also what test/bench/sizes.mjs measures every bundle with, so both agree on what a size is.
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The browser entries with a budget, paths relative to this file. */
export const browserBudgets = [
  { name: 'status widget', entry: '../src/status/index.ts', maxBytes: 6 * 1024 },
];

/**
 * Bundles one entry with esbuild (minified, browser ESM unless `options` says otherwise) and
 * returns its minified and min+gzip sizes in bytes, and the metafile for who-weighs-what.
 */
export async function minGzipSize(entryPath, options = {}) {
  const result = await build({
    entryPoints: [entryPath],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    ...options,
  });
  const code = result.outputFiles[0].contents;
  return { minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, metafile: result.metafile };
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
