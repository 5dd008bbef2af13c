// The web app and live-status quick starts in a fresh npm project: the README's blocks copied
// verbatim into a vite app, type-checked strictly with and without Node's types, built with vite
// and run in headless Chromium.
import { rm } from 'node:fs/promises';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../chromium.js';
import { budget } from '../slowdown.js';
import {
  installedNames,
  npmProject,
  readmeBlock,
  tarball,
  typecheck,
  versions,
  viteBuildAndPreview,
  writeFiles,
} from './kit.js';

const examples = {
  'src/tools.ts': 'docs/examples/tools.ts',
  'src/tools.worker.ts': 'docs/examples/web-app.worker.ts',
  'src/main.ts': 'docs/examples/web-app.ts',
  'src/live-status.ts': 'docs/examples/live-status.ts',
};
// The page around each example: the elements it looks up, and its script.
const pages = {
  'index.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tools</title></head>
<body><div id="status"></div><button id="cancel">Cancel</button><script type="module" src="/src/main.ts"></script></body></html>
`,
  'live-status.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>live status</title></head>
<body><div id="local"></div><div id="remote"></div><toolctx-status></toolctx-status>
<script type="module" src="/src/live-status.ts"></script></body></html>
`,
  'vite.config.js': `export default {
  build: { target: 'es2022', rollupOptions: { input: ['index.html', 'live-status.html'] } },
  worker: { format: 'es' },
};
`,
};
const dom = { lib: ['ES2022', 'DOM', 'DOM.Iterable'] };
let dir = '';
let preview: { url: string; stop(): void } | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  dir = await npmProject(
    'web',
    {
      '@toolctx/core': await tarball('core'),
      '@toolctx/browser': await tarball('browser'),
      zod: versions.zod,
    },
    { vite: versions.vite, typescript: versions.typescript, '@types/node': versions['@types/node'] },
  );
  const files: Record<string, string> = { ...pages };
  for (const [file, example] of Object.entries(examples))
    files[file] = await readmeBlock(`example: ${example}`);
  await writeFiles(dir, files);
});

afterAll(async () => {
  await browser?.close();
  preview?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Opens a built page, collecting what it logs and throws. */
async function open(path: string): Promise<{ page: Page; logged: unknown[]; errors: string[] }> {
  browser ??= await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
  const page = await browser.newPage();
  const logged: unknown[] = [];
  const errors: string[] = [];
  page.on('console', async (message) => {
    if (message.type() === 'error') errors.push(message.text());
    else logged.push(...(await Promise.all(message.args().map((arg) => arg.jsonValue()))));
  });
  page.on('pageerror', (error) => errors.push(error.message));
  // Nothing leaves this machine: the example's remote server is not there.
  await page.route('https://tools.example.com/**', (route) => route.abort());
  await page.goto(`${preview?.url}/${path}`);
  return { page, logged, errors };
}

describe('the web app quick starts from the tarballs', () => {
  it('install with the README’s line: core, browser and zod; vite and TypeScript', async () => {
    expect(installedNames(await readmeBlock('install: web-app'))).toEqual([
      '@toolctx/core',
      '@toolctx/browser',
      'zod',
      'vite',
      'typescript',
    ]);
  });

  it('type-check strictly in a DOM project without Node types', async () => {
    await typecheck(dir, 'web', Object.keys(examples), { ...dom, types: [] });
  });

  it('type-check strictly in a DOM project with Node types', async () => {
    await typecheck(dir, 'web-node', Object.keys(examples), { ...dom, types: ['node'] });
  });

  it('build with vite', async () => {
    preview = await viteBuildAndPreview(dir);
  });

  it('runs summarise in the module Worker with its artifact in IndexedDB, and shows its status line', async () => {
    const { page, logged, errors } = await open('index.html');
    await expect
      .poll(() => logged, { timeout: budget(20_000) })
      .toContainEqual({
        ref: expect.stringMatching(/^art_/),
        pages: 2,
      });
    expect(await page.locator('#status').textContent()).toMatch(/summarise/);
    expect(errors).toEqual([]);
  });

  it('shows something on the live-status page, as a person sees it', async () => {
    const { page, errors } = await open('live-status.html');
    // What a person sees: visible text only (the widgets' own <style> is in textContent, not here).
    // biome-ignore lint/performance/useDomNodeTextContent: rendered text is the point of this check.
    const shown = () => page.locator('body').innerText();
    await expect.poll(shown, { timeout: budget(20_000) }).toMatch(/\S/);
    expect(errors.filter((error) => !/tools\.example\.com|ERR_FAILED/.test(error))).toEqual([]);
  });
});
