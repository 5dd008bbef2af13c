// The React guide in a fresh npm project: the README's example copied verbatim into a React 19 +
// vite app, type-checked strictly with the JSX typing the package ships (the app declares
// nothing), built with vite and run in headless Chromium, where the widget is unmounted and
// mounted again while a call waits for approval.
import { rm } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { openPage, playRemountScene, scenePage } from './remount-scene.js';

const files = {
  'index.html': scenePage('React status', '/src/main.tsx'),
  // The mistake the guide warns of: the element defined after React made it.
  'late.html': scenePage('Defined late', '/src/late.tsx'),
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
  // Type-checked only: the shipped typing refuses what is no source.
  'src/checks.tsx': `import '@toolctx/browser/react';

// @ts-expect-error a number is no StatusSource
export const wrong = <toolctx-status source={42} />;
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
const browser: { current?: Browser } = {};

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
  await browser.current?.close();
  preview?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

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

  it('type-checks strictly with the JSX typing the package ships, which refuses a number as source', async () => {
    await typecheck(dir, 'react', ['src/main.tsx', 'src/late.tsx', 'src/checks.tsx'], {
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
      jsx: 'react-jsx',
    });
  });

  it('builds with vite', async () => {
    preview = await viteBuildAndPreview(dir);
  });

  it('keeps a waiting approval through an unmount and a remount, and Approve settles the call', async () => {
    const { page, errors } = await openPage(browser, `${preview?.url}/`);
    await playRemountScene(page, 'React', 'react-remount');
    expect(errors).toEqual([]);
  });

  it('defined after React made it, the element gets the run as the text of an attribute and shows nothing', async () => {
    const { page, errors } = await openPage(browser, `${preview?.url}/late.html`);
    const element = page.locator('toolctx-status');
    await expect
      .poll(() => element.getAttribute('source'), { timeout: budget(20_000) })
      .toBe('[object Object]');
    expect(await element.evaluate((status) => status.shadowRoot === null)).toBe(true);
    expect(errors).toEqual([]);
  });
});
