// The size budget for what ships to browsers: each entry bundled with @toolctx/core (only the parts
// it pulls in), minified and gzipped. Fails over budget so the test command does.
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const budgets = [{ name: 'status widget', entry: '../src/status/index.ts', maxBytes: 6 * 1024 }];

let over = false;
for (const { name, entry, maxBytes } of budgets) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const gzipped = gzipSync(code, { level: 9 }).length;
  const fits = gzipped <= maxBytes;
  over ||= !fits;
  console.log(
    `${fits ? 'ok  ' : 'OVER'} ${name}: ${(gzipped / 1024).toFixed(2)} KiB min+gzip ` +
      `(${(code.length / 1024).toFixed(2)} KiB min), budget ${(maxBytes / 1024).toFixed(2)} KiB`,
  );
}
if (over) {
  console.error('A browser entry is over its size budget: see packages/browser/scripts/size.mjs.');
  process.exit(1);
}
