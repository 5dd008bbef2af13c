// The routes table in README.md is the door's reference: it must list exactly the routes the
// router has, each method on its own, so neither can change without the other.
import { readFile } from 'node:fs/promises';
import { createRuntime } from '@toolctx/core';
import { createToolServer } from '@toolctx/edge';
import { describe, expect, it } from 'vitest';

const methods = /\b(GET|HEAD|POST|PUT|PATCH|DELETE)\b/g;

/** `METHOD /path` of each row of the README's routes table; a row without a path is skipped. */
async function tableRoutes(): Promise<string[]> {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Routes\n'), readme.indexOf('### Pages on another origin'));
  const routes: string[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const route = line.split(' | ')[0]!;
    const path = /\/[a-z][^\s`?]*/.exec(route)?.[0];
    if (!path) continue;
    for (const [method] of route.slice(0, route.indexOf(path)).matchAll(methods))
      routes.push(`${method} ${path}`);
  }
  return routes.sort();
}

describe('the routes table in the README', () => {
  it('lists exactly the routes the door’s router has', async () => {
    const app = createToolServer({
      runtimeFor: () => createRuntime({ tools: [] }),
      authenticate: () => null,
    });
    const routed = app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method} ${route.path}`);
    const listed = await tableRoutes();
    expect(listed).toHaveLength(10);
    expect(listed).toEqual([...new Set(routed)].sort());
  });
});
