// `pnpm pack:all [dir]`: builds the three packages and writes their tarballs, as `npm publish`
// would upload them, into one folder (default `packs/`), so an app can
// `npm install ./packs/toolctx-core-0.1.0.tgz …` before the packages are on the npm registry.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = resolve(process.argv[2] ?? resolve(root, 'packs'));
const packages = ['core', 'browser', 'edge'];

execFileSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', '--filter=./packages/*', '--output-logs=errors-only'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
mkdirSync(out, { recursive: true });
for (const name of packages) {
  // pnpm, not npm: it turns `workspace:*` into the version, as publishing does.
  execFileSync('pnpm', ['pack', '--pack-destination', out], {
    cwd: resolve(root, 'packages', name),
    stdio: 'ignore',
  });
}
const tarballs = readdirSync(out).filter((file) => /^toolctx-(core|browser|edge)-.+\.tgz$/.test(file));
console.log(`${tarballs.length} tarballs in ${out}:\n${tarballs.map((file) => `  ${file}`).join('\n')}`);
