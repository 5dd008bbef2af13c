// The edge README's OAuth quick start in a fresh npm project: src/worker.ts, src/sign-in.ts and
// wrangler.jsonc copied verbatim beside the root README's src/tools.ts, installed from the tarballs
// with the README's line, type-checked strictly with the Workers types, served by `wrangler dev`
// with the README's .dev.vars, and signed in to by the MCP SDK client's OAuth support as a user's
// client does (test/oauth-client.ts, shared with test/worker/oauth.test.ts).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, textOf } from '../oauth-client.js';
import { freePort, startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import {
  installedNames,
  npmProject,
  readmeBlock,
  sh,
  tarball,
  typecheck,
  versions,
  writeFiles,
} from './kit.js';

const examples = {
  'src/tools.ts': 'docs/examples/tools.ts',
  'src/sign-in.ts': 'docs/examples/sign-in.ts',
  'src/worker.ts': 'docs/examples/oauth-worker.ts',
  'wrangler.jsonc': 'docs/examples/wrangler-oauth.jsonc',
};
let dir = '';
let dev: WranglerDev | undefined;

beforeAll(async () => {
  dir = await npmProject(
    'oauth',
    {
      '@toolctx/core': await tarball('core'),
      '@toolctx/edge': await tarball('edge'),
      '@cloudflare/workers-oauth-provider': versions['@cloudflare/workers-oauth-provider'],
      hono: versions.hono,
      zod: versions.zod,
      // A peer of @toolctx/edge that npm would add by itself; named here so the run is repeatable.
      '@modelcontextprotocol/server': versions['@modelcontextprotocol/server'],
    },
    {
      wrangler: versions.wrangler,
      '@cloudflare/workers-types': versions['@cloudflare/workers-types'],
      typescript: versions.typescript,
    },
  );
  const files: Record<string, string> = {};
  for (const [file, example] of Object.entries(examples))
    files[file] = await readmeBlock(`example: ${example}`);
  await writeFiles(dir, files);
});

afterAll(async () => {
  await dev?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the OAuth quick start from the tarballs', () => {
  it('installs with the README’s line: core, edge, the OAuth provider, hono and zod; wrangler and the Workers types', async () => {
    const names = installedNames(await readmeBlock('install: oauth-worker'));
    expect(names).toEqual([
      '@toolctx/core',
      '@toolctx/edge',
      '@cloudflare/workers-oauth-provider',
      'hono',
      'zod',
      'wrangler',
      '@cloudflare/workers-types',
      'typescript',
    ]);
  });

  it('type-checks strictly with the Workers types and skipLibCheck: the Worker, its sign-in, the tools', async () => {
    const files = Object.keys(examples).filter((file) => file.endsWith('.ts'));
    await typecheck(dir, 'oauth', files, {
      lib: ['ES2022'],
      types: ['@cloudflare/workers-types'],
      skipLibCheck: true,
    });
  });

  it('serves under wrangler dev with the README’s .dev.vars; without a token, both doors answer 401 naming the protected-resource metadata, whose resource is the Worker’s origin', async () => {
    const steps = (await readmeBlock('run: oauth-worker-dev')).split('\n');
    const devVars = steps.find((line) => line.includes('.dev.vars')) ?? '';
    await sh('bash', ['-c', devVars], { cwd: dir });
    expect(steps).toContain('npx wrangler dev');
    // The README's origin is wrangler dev's default port; this run takes a free one, and says so.
    const port = await freePort();
    dev = await startWranglerDev({
      cwd: dir,
      wrangler: join(dir, 'node_modules/.bin/wrangler'),
      port,
      vars: { PUBLIC_ORIGIN: `http://127.0.0.1:${port}` },
      readyPath: '/.well-known/oauth-protected-resource',
    });
    for (const [path, init] of [
      ['/mcp', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }],
      ['/tools', {}],
    ] as const) {
      const response = await fetch(`${dev.url}${path}`, init);
      expect([path, response.status]).toEqual([path, 401]);
      expect(response.headers.get('www-authenticate')).toContain(
        `resource_metadata="${dev.url}/.well-known/oauth-protected-resource"`,
      );
    }
    const metadata = await (await fetch(`${dev.url}/.well-known/oauth-protected-resource`)).json();
    expect(metadata).toMatchObject({ resource: dev.url, authorization_servers: [dev.url] });
  });

  it('lets the MCP SDK client sign a user in (discovery, registration, PKCE, token) and call tools as them; the token opens the HTTP door to their artifact, and another user’s does not', async () => {
    if (!dev) throw new Error('wrangler dev did not start');
    const ana = await signIn(dev.url, 'ana');
    expect(ana.requests.slice(0, 4)).toEqual([
      'POST /mcp',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-authorization-server',
      'POST /register',
    ]);
    expect(ana.requests.indexOf('POST /token')).toBeGreaterThan(3);
    const authorization = ana.oauth.authorizationUrl!;
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(new URL(authorization.searchParams.get('resource')!).origin).toBe(dev.url);

    const counted = await ana.client.callTool({ name: 'count_words', arguments: { text: 'to be or not' } });
    expect(textOf(counted)).toBe('4');
    const summary = await ana.client.callTool({
      name: 'summarise',
      arguments: { pages: ['Ana’s first page', 'Second'] },
    });
    const ref = /art_\w+/.exec(textOf(summary))?.[0];
    expect(ref).toBeDefined();
    const read = (token: string) =>
      fetch(`${dev!.url}/artifacts/${ref}`, { headers: { authorization: `Bearer ${token}` } });
    const own = await read(ana.token);
    expect([own.status, await own.text()]).toEqual([200, 'Ana’s first page\nSecond']);

    const ben = await signIn(dev.url, 'ben');
    expect(ben.token).not.toBe(ana.token);
    const theirs = await read(ben.token);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain('Ana’s first page');
    await Promise.all([ana.client.close(), ben.client.close()]);
  });

  it('signs nobody in with the sign-in stand-in unless DEV_SIGN_IN is true', async () => {
    const { signIn: standIn } = (await import(join(dir, 'src/sign-in.ts'))) as {
      signIn(request: Request, env: { DEV_SIGN_IN?: string }): Promise<string | Response>;
    };
    const asAna = new Request('http://127.0.0.1/authorize?user=ana');
    for (const env of [{}, { DEV_SIGN_IN: 'false' }, { DEV_SIGN_IN: '1' }]) {
      const refused = await standIn(asAna, env);
      expect(refused).toBeInstanceOf(Response);
      expect((refused as Response).status).toBe(501);
    }
    expect(await standIn(asAna, { DEV_SIGN_IN: 'true' })).toBe('ana');
    const nobody = await standIn(new Request('http://127.0.0.1/authorize'), { DEV_SIGN_IN: 'true' });
    expect((nobody as Response).status).toBe(400);
  });
});
