// The React guide in a fresh npm project: the README's example copied verbatim into a React 19 +
// vite app, type-checked strictly with the JSX typing the package ships (the app declares
// nothing), built with vite and run in headless Chromium, where the widget is unmounted and
// mounted again while a call waits for approval.
import { mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
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

const output = fileURLToPath(new URL('./output/', import.meta.url));
const files = {
  'index.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>React status</title></head>
<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>
`,
  // The mistake the guide warns of: the element defined after React made it.
  'late.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Defined late</title></head>
<body><div id="root"></div><script type="module" src="/src/late.tsx"></script></body></html>
`,
  'src/late.tsx': `import '@toolctx/browser/react';
import { defineStatusElement } from '@toolctx/browser/status';
import { createRuntime } from '@toolctx/core';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

const run = createRuntime({ tools: [] }).startRun();
const root = createRoot(document.querySelector('#root')!);
flushSync(() => root.render(<toolctx-status source={run} />));
defineStatusElement();
`,
  // As `npm create vite -- --template react-ts` sets it up, with a second page.
  'vite.config.js': `import react from '@vitejs/plugin-react';
export default {
  plugins: [react()],
  build: { target: 'es2022', rollupOptions: { input: ['index.html', 'late.html'] } },
};
`,
};
let dir = '';
let preview: { url: string; stop(): void } | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  dir = await npmProject(
    'react',
    {
      '@toolctx/core': await tarball('core'),
      '@toolctx/browser': await tarball('browser'),
      zod: versions.zod,
      react: versions.react,
      'react-dom': versions['react-dom'],
    },
    {
      vite: versions.vite,
      '@vitejs/plugin-react': versions['@vitejs/plugin-react'],
      typescript: versions.typescript,
      '@types/react': versions['@types/react'],
      '@types/react-dom': versions['@types/react-dom'],
    },
  );
  await writeFiles(dir, {
    ...files,
    'src/main.tsx': await readmeBlock('example: docs/examples/react-status.tsx'),
  });
});

afterAll(async () => {
  await browser?.close();
  preview?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Opens the built page, collecting what it reports as errors. */
async function open(path = ''): Promise<{ page: Page; errors: string[] }> {
  browser ??= await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${preview?.url}/${path}`);
  return { page, errors };
}

describe('the React guide from the tarballs', () => {
  it('installs with the README’s line: core, browser, zod and React; vite, its React plugin, TypeScript and React’s types', async () => {
    expect(installedNames(await readmeBlock('install: react-app'))).toEqual([
      '@toolctx/core',
      '@toolctx/browser',
      'zod',
      'react',
      'react-dom',
      'vite',
      '@vitejs/plugin-react',
      'typescript',
      '@types/react',
      '@types/react-dom',
    ]);
  });

  it('type-checks strictly with the JSX typing the package ships', async () => {
    await typecheck(dir, 'react', ['src/main.tsx', 'src/late.tsx'], {
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
      jsx: 'react-jsx',
    });
  });

  it('builds with vite', async () => {
    preview = await viteBuildAndPreview(dir);
  });

  it('keeps a waiting approval through an unmount and a remount, and Approve settles the call', async () => {
    const { page, errors } = await open();
    const approve = page.getByRole('button', { name: 'Approve publish_note' });
    const deny = page.getByRole('button', { name: 'Deny publish_note' });
    // What the page's `options.actions.details` says: the options object arrived as a property.
    const asked = page.getByText('Publish a note: text “Hello from React”');
    const patience = { timeout: budget(20_000) };
    await expect.poll(() => approve.isVisible(), patience).toBe(true);
    expect(await deny.isVisible()).toBe(true);
    expect(await asked.isVisible()).toBe(true);
    // React 19 set the run as a property: nothing of it is an attribute.
    expect(await page.locator('toolctx-status').evaluate((element) => element.getAttributeNames())).toEqual(
      [],
    );

    await page.getByRole('button', { name: 'Hide status' }).click();
    await expect.poll(() => page.locator('toolctx-status').count(), patience).toBe(0);
    await page.getByRole('button', { name: 'Show status' }).click();
    await expect.poll(() => approve.isVisible(), patience).toBe(true);
    expect(await deny.isVisible()).toBe(true);
    expect(await asked.isVisible()).toBe(true);
    await mkdir(output, { recursive: true });
    await page.screenshot({ path: `${output}react-remount.png` });

    const summary = page.locator('toolctx-status [part~="summary"]');
    expect(await summary.textContent()).toBe('1 waiting · 0 of 1 done');
    await approve.click();
    await expect.poll(() => summary.textContent(), patience).toBe('1 of 1 done');
    expect(await approve.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('defined after React made it, the element gets the run as the text of an attribute and shows nothing', async () => {
    const { page, errors } = await open('late.html');
    const element = page.locator('toolctx-status');
    await expect
      .poll(() => element.getAttribute('source'), { timeout: budget(20_000) })
      .toBe('[object Object]');
    expect(await element.evaluate((status) => status.shadowRoot === null)).toBe(true);
    expect(errors).toEqual([]);
  });
});
