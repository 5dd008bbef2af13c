// The IndexedDB artifact store's own code, minified and gzipped, against its budget. `idb` and
// `@toolctx/core` are left out (marked external): the budget is for what this package adds.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET_BYTES = 4 * 1024;

const result = await build({
  stdin: {
    contents: "export { createIdbArtifactStore } from './src/stores/idb-artifact-store.ts';",
    resolveDir: new URL('..', import.meta.url).pathname,
    loader: 'ts',
  },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  external: ['idb', '@toolctx/core'],
  write: false,
  logLevel: 'silent',
});
const code = result.outputFiles[0].contents;
const gzipped = gzipSync(code, { level: 9 }).byteLength;
const verdict = gzipped <= BUDGET_BYTES ? 'within' : 'OVER';
console.log(
  `createIdbArtifactStore: ${code.byteLength} B min, ${gzipped} B min+gzip — ${verdict} the ${BUDGET_BYTES} B budget (idb and @toolctx/core external)`,
);
if (gzipped > BUDGET_BYTES) process.exit(1);
