// The routes table in packages/edge/README.md is the HTTP door's reference: it must list exactly
// the routes the door's router has, each method on its own, so neither changes without the
// other. Needs a build of core and edge.
import { readFile } from 'node:fs/promises';
import { createRuntime } from '@toolctx/core';
import { createToolServer } from '@toolctx/edge';

const readmeUrl = new URL('../../packages/edge/README.md', import.meta.url);
const readme = await readFile(readmeUrl, 'utf8');
const start = readme.indexOf('## Routes\n');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
const methods = /\b(GET|HEAD|POST|PUT|PATCH|DELETE)\b/g;

// `METHOD /path` of each row; a row without a path ("same, with Accept: …") adds none.
const listed = [];
for (const line of section.split('\n')) {
  if (!line.startsWith('| `')) continue;
  const route = line.split(' | ')[0];
  const path = /\/[a-z][^\s`?]*/.exec(route)?.[0];
  if (!path) continue;
  for (const [method] of route.slice(0, route.indexOf(path)).matchAll(methods))
    listed.push(`${method} ${path}`);
}

const app = createToolServer({ runtimeFor: () => createRuntime({ tools: [] }), authenticate: () => null });
const routed = [
  ...new Set(app.routes.filter((route) => route.method !== 'ALL').map((r) => `${r.method} ${r.path}`)),
];
const missing = routed.filter((route) => !listed.includes(route));
const extra = listed.filter((route) => !routed.includes(route));
if (routed.length === 0 || missing.length > 0 || extra.length > 0) {
  console.error(
    `packages/edge/README.md's routes table and createToolServer's router disagree.\n` +
      (missing.length ? `Routed but not in the table: ${missing.join(', ')}\n` : '') +
      (extra.length ? `In the table but not routed: ${extra.join(', ')}\n` : '') +
      'Fix: edit the table under "## Routes" (one row per route; methods in backticks before the path).',
  );
  process.exit(1);
}
console.log(`packages/edge/README.md: the routes table lists the door's ${routed.length} routes.`);
