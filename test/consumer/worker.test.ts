// The Cloudflare quick start in a fresh npm project on hono 4.12: src/worker.ts, wrangler.jsonc
// and the .dev.vars step copied verbatim from the README, type-checked strictly with the Workers
// types, built with `wrangler deploy --dry-run`, and served by `wrangler dev` on loopback; a page
// on another origin, built from the @toolctx/browser tarball, calls it in headless Chromium.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../chromium.js';
import { type ServedPage, servePage } from '../page-server.js';
import { budget } from '../slowdown.js';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
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
  'src/worker.ts': 'docs/examples/cloudflare-worker.ts',
  'src/mcp-worker.ts': 'docs/examples/mcp-worker.ts',
  'src/mcp-prompts.ts': 'docs/examples/mcp-prompts.ts',
  'wrangler.jsonc': 'docs/examples/wrangler.jsonc',
};
const workerTypes = { lib: ['ES2022'], types: ['@cloudflare/workers-types'] };
// The README says only "bind MCP_SESSIONS to ToolsMcpSession and RUNS to RunHost"; these are those bindings.
const mcpConfig = {
  name: 'toolctx-mcp',
  main: 'src/mcp-worker.ts',
  compatibility_date: '2026-04-20',
  compatibility_flags: ['enable_request_signal'],
  durable_objects: {
    bindings: [
      { name: 'MCP_SESSIONS', class_name: 'ToolsMcpSession' },
      { name: 'RUNS', class_name: 'RunHost' },
    ],
  },
  migrations: [{ tag: 'v1', new_sqlite_classes: ['ToolsMcpSession', 'RunHost'] }],
};
let dir = '';
let dev: WranglerDev | undefined;
let token = '';
// The page on another origin: 127.0.0.1 at this port is let in by TOOLCTX_ALLOWED_ORIGINS;
// localhost at the same port is another origin.
let pagePort = 0;
let pages: ServedPage | undefined;

// What the page does, as an app on another origin would: start a run, follow it with connectRun,
// call a tool, end the run, all with the token (so every request is preflighted); what it saw goes
// to `window.seen`.
const pageScript = `
import { connectRun } from '@toolctx/browser/remote';
const query = new URLSearchParams(location.search);
const worker = query.get('worker');
const headers = { authorization: 'Bearer ' + query.get('token'), 'content-type': 'application/json' };
window.seen = { types: [], done: false };
try {
  const { runId } = await (await fetch(worker + '/runs', { method: 'POST', headers, body: '{}' })).json();
  const events = connectRun(worker, runId, { headers: { authorization: headers.authorization }, retry: { attempts: 0 } });
  const followed = (async () => { for await (const event of events) window.seen.types.push(event.type); })();
  const call = await fetch(worker + '/runs/' + runId + '/calls', {
    method: 'POST', headers, body: JSON.stringify({ tool: 'summarise', args: { pages: ['One page', 'Two'] } }),
  });
  window.seen.callId = call.headers.get('x-toolctx-call-id');
  window.seen.result = await call.json();
  await fetch(worker + '/runs/' + runId, { method: 'DELETE', headers });
  await followed;
} catch (error) {
  window.seen.error = error.name + ': ' + error.message;
}
window.seen.done = true;
`;

beforeAll(async () => {
  dir = await npmProject(
    'worker',
    {
      '@toolctx/core': await tarball('core'),
      '@toolctx/edge': await tarball('edge'),
      // For the page on another origin (not in the quick start's install line).
      '@toolctx/browser': await tarball('browser'),
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
  await writeFiles(dir, { ...files, 'wrangler.mcp.json': JSON.stringify(mcpConfig, null, 2) });
  // The page's script is bundled from the project's own node_modules: the tarballs' code.
  pages = await servePage(pageScript, dir);
  pagePort = pages.port;
});

afterAll(async () => {
  await pages?.close();
  await dev?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Cloudflare quick start from the tarballs', () => {
  it('installs with the README’s line: core, edge, hono and zod; wrangler and the Workers types', async () => {
    const names = installedNames(await readmeBlock('install: cloudflare-worker'));
    expect(names).toEqual([
      '@toolctx/core',
      '@toolctx/edge',
      'hono',
      'zod',
      'wrangler',
      '@cloudflare/workers-types',
      'typescript',
    ]);
  });

  it('gets one copy of hono: the app’s 4.12, which @toolctx/edge takes as its peer', async () => {
    const { stdout } = await sh('npm', ['ls', 'hono', '--all', '--parseable'], { cwd: dir });
    expect(stdout.trim().split('\n')).toEqual([join(dir, 'node_modules/hono')]);
    const hono = JSON.parse(await readFile(join(dir, 'node_modules/hono/package.json'), 'utf8'));
    expect(hono.version).toBe(versions.hono);
  });

  it('type-checks strictly with the Workers types and skipLibCheck, as the README says: the Worker, MCP on a Worker, MCP prompts', async () => {
    const files = Object.keys(examples).filter((file) => file.endsWith('.ts'));
    await typecheck(dir, 'worker', files, { ...workerTypes, skipLibCheck: true });
    // The README's reason, and its only one: without skipLibCheck, tsc stops at Node's Buffer in the
    // MCP SDK's declarations. Once the SDK stops naming it, this fails and the README's note goes.
    const failed = await typecheck(dir, 'worker-libs', files, workerTypes).then(
      () => '',
      (error: Error) => error.message,
    );
    const errors = failed.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors)
      expect(error).toMatch(/@modelcontextprotocol\/server\/dist\/.*TS2591: Cannot find name 'Buffer'/);
  });

  it('builds with wrangler deploy --dry-run from the README’s wrangler.jsonc', async () => {
    const { stdout } = await sh(
      join(dir, 'node_modules/.bin/wrangler'),
      ['deploy', '--dry-run', '--outdir', 'dist'],
      {
        cwd: dir,
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
      },
    );
    expect(stdout).toMatch(/--dry-run: exiting now/);
    for (const binding of ['RUNS', 'ADMISSIONS', 'IDENTITY_STATE', 'ARTIFACT_META', 'ARTIFACTS'])
      expect(stdout).toContain(binding);
  });

  it('answers under wrangler dev once .dev.vars has the token, and 401 without it', async () => {
    const steps = (await readmeBlock('run: cloudflare-worker-dev')).split('\n');
    const devVars = steps.find((line) => line.includes('.dev.vars')) ?? '';
    await sh('bash', ['-c', devVars], { cwd: dir });
    token = /TOOLCTX_TOKEN=([^'"\s]+)/.exec(devVars)?.[1] ?? '';
    const curl = steps.find((line) => line.startsWith('curl')) ?? '';
    expect(curl).toContain(`Bearer ${token}`);
    dev = await startWranglerDev({
      cwd: dir,
      wrangler: join(dir, 'node_modules/.bin/wrangler'),
      args: ['--test-scheduled'],
      vars: { TOOLCTX_ALLOWED_ORIGINS: `http://127.0.0.1:${pagePort}` },
      readyPath: '/tools',
    });
    expect((await fetch(`${dev.url}/tools`)).status).toBe(401);
    const listed = await fetch(`${dev.url}/tools`, { headers: { authorization: `Bearer ${token}` } });
    expect(listed.status).toBe(200);
    const { tools } = (await listed.json()) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toEqual(['count_words', 'summarise']);
  });

  it('runs summarise in a Durable Object run and keeps its artifact in R2 and KV', async () => {
    if (!dev) throw new Error('wrangler dev did not start');
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const started = await fetch(`${dev.url}/runs`, { method: 'POST', headers: auth, body: '{}' });
    expect(started.status).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    const call = await fetch(`${dev.url}/runs/${runId}/calls`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ tool: 'summarise', args: { pages: ['First page text', 'Second page text'] } }),
    });
    const result = (await call.json()) as { ok: boolean; value?: { ref: string; pages: number } };
    expect(result).toMatchObject({ ok: true, value: { ref: expect.stringMatching(/^art_/), pages: 2 } });
    const listing = await fetch(`${dev.url}/artifacts`, { headers: auth });
    const { artifacts } = (await listing.json()) as { artifacts: { ref: string }[] };
    expect(artifacts.map((artifact) => artifact.ref)).toContain(result.value?.ref);
  });

  it('lets a page on an allowed origin start a run, follow it with connectRun and call a tool; keeps another origin out', async () => {
    if (!dev) throw new Error('wrangler dev did not start');
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    const visit = async (host: string) => {
      const page = await browser.newPage();
      const query = new URLSearchParams({ worker: dev!.url, token });
      await page.goto(`http://${host}:${pagePort}/?${query}`);
      await page.waitForFunction(() => (window as { seen?: { done: boolean } }).seen?.done, undefined, {
        timeout: budget(30_000),
      });
      return page.evaluate(() => (window as unknown as { seen: Record<string, unknown> }).seen);
    };
    try {
      const allowed = await visit('127.0.0.1');
      expect(allowed.error).toBeUndefined();
      expect(allowed.result).toMatchObject({
        ok: true,
        value: { ref: expect.stringMatching(/^art_/), pages: 2 },
      });
      // A header the page's script may read only because the door exposes it.
      expect(allowed.callId).toMatch(/\S/);
      expect(allowed.types).toEqual(
        expect.arrayContaining([
          'run.started',
          'tool.started',
          'artifact.put',
          'tool.finished',
          'run.finished',
        ]),
      );
      // The same page from another origin: the browser withholds every answer.
      const elsewhere = await visit('localhost');
      expect(elsewhere.error).toMatch(/^TypeError: Failed to fetch/);
      expect(elsewhere.types).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('runs the retention sweep from the cron trigger', async () => {
    if (!dev) throw new Error('wrangler dev did not start');
    const swept = await fetch(`${dev.url}/__scheduled?cron=${encodeURIComponent('0 * * * *')}`);
    expect(swept.status).toBe(200);
    expect(dev.output()).not.toMatch(/Uncaught|Error:/);
  });

  it("serves MCP on a Worker: authenticate reads the token from the Worker's env, and the SDK client lists and calls the tools under wrangler dev", async () => {
    const mcp = await startWranglerDev({
      cwd: dir,
      wrangler: join(dir, 'node_modules/.bin/wrangler'),
      config: 'wrangler.mcp.json',
      vars: { MCP_TOKEN: 'mcp-token' },
      readyPath: '/mcp',
    });
    const client = new Client({ name: 'consumer-test', version: '1.0.0' });
    try {
      const guessed = await fetch(`${mcp.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer guess',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
      expect(guessed.status).toBe(401);
      const headers = { authorization: 'Bearer mcp-token' };
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${mcp.url}/mcp`), { requestInit: { headers } }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['count_words', 'summarise']);
      const counted = await client.callTool({
        name: 'count_words',
        arguments: { text: 'to be or not to be' },
      });
      expect(counted.content).toEqual([{ type: 'text', text: '6' }]);
    } finally {
      await client.close();
      await mcp.stop();
    }
  });
});
