// The Svelte guide in a fresh npm project: the README's component copied verbatim into a Svelte 5 +
// vite app, checked by svelte-check with strict settings and the typing the package ships (the
// app declares nothing), built with vite and run in headless Chromium, where the widget is
// unmounted and mounted again while a call waits for approval.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import {
  installedNames,
  npmProject,
  readmeBlock,
  sh,
  strictOptions,
  tarball,
  versions,
  viteBuildAndPreview,
  writeFiles,
} from './kit.js';
import { openPage, playRemountScene, scenePage } from './remount-scene.js';

// The run and the mount around the guide's component, as the guide's comment says.
const main = `import { createRuntime, defineTool } from '@toolctx/core';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { mount } from 'svelte';
import { z } from 'zod';
import RunStatus from './RunStatus.svelte';

const publishNote = defineTool({
  name: 'publish_note',
  title: 'Publish a note',
  description: 'Publishes a short note. Needs a person’s approval.',
  inputSchema: z.object({ text: z.string() }),
  needsApproval: true,
  execute: async ({ text }) => ({ published: text }),
});
const run = createRuntime({ tools: [publishNote], approval: createMemoryApprovalPort() }).startRun();
const note = { text: 'Hello from Svelte' };
const options = { actions: { details: () => ({ title: 'Publish a note', args: note }) } };
mount(RunStatus, { target: document.querySelector('#root')!, props: { run, options } });
await run.call({ tool: 'publish_note', args: note });
`;
const files = {
  'index.html': scenePage('Svelte status', '/src/main.ts'),
  'src/main.ts': main,
  // The element defined after Svelte rendered it: Svelte sets an object on an element not yet
  // defined as a property, which the element takes up when it is.
  'late.html': scenePage('Defined late', '/src/late.ts'),
  'src/Late.svelte': `<script lang="ts">
  import '@toolctx/browser/svelte';
  import type { Run } from '@toolctx/core';

  let { run }: { run: Run } = $props();
</script>

<toolctx-status source={run}></toolctx-status>
`,
  'src/late.ts': `import { defineStatusElement } from '@toolctx/browser/status';
import { createRuntime, defineTool } from '@toolctx/core';
import { flushSync, mount } from 'svelte';
import { z } from 'zod';
import Late from './Late.svelte';

const wait = defineTool({
  name: 'wait_here',
  description: 'Waits until cancelled.',
  inputSchema: z.object({}),
  execute: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', resolve)),
});
const run = createRuntime({ tools: [wait] }).startRun();
flushSync(() => mount(Late, { target: document.querySelector('#root')!, props: { run } }));
defineStatusElement();
void run.call({ tool: 'wait_here', args: {} });
`,
  // Checked apart: the shipped typing refuses what is no source.
  'wrong/Wrong.svelte': `<script lang="ts">
  import '@toolctx/browser/svelte';
</script>

<toolctx-status source={42}></toolctx-status>
`,
  'vite.config.js': `import { svelte } from '@sveltejs/vite-plugin-svelte';
export default {
  plugins: [svelte()],
  build: { target: 'es2022', rollupOptions: { input: ['index.html', 'late.html'] } },
};
`,
};
const compilerOptions = { ...strictOptions, lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [] };
let dir = '';
let preview: { url: string; stop(): void } | undefined;
const browser: { current?: Browser } = {};

beforeAll(async () => {
  dir = await npmProject(
    'svelte',
    {
      '@toolctx/core': await tarball('core'),
      '@toolctx/browser': await tarball('browser'),
      zod: versions.zod,
      svelte: versions.svelte,
    },
    {
      vite: versions.vite,
      '@sveltejs/vite-plugin-svelte': versions['@sveltejs/vite-plugin-svelte'],
      typescript: versions.typescript,
      'svelte-check': versions['svelte-check'],
    },
  );
  await writeFiles(dir, {
    ...files,
    'src/RunStatus.svelte': await readmeBlock('example: docs/examples/svelte-status.svelte'),
  });
});

afterAll(async () => {
  await browser.current?.close();
  preview?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs svelte-check on what `include` names, with the strict settings. */
async function svelteCheck(name: string, include: string[]): Promise<void> {
  await writeFile(join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, include }, null, 2));
  await sh(
    join(dir, 'node_modules/.bin/svelte-check'),
    ['--tsconfig', `./tsconfig.${name}.json`, '--fail-on-warnings', '--output', 'machine'],
    { cwd: dir },
  );
}

describe('the Svelte guide from the tarballs', () => {
  it('installs with the README’s line: core, browser, zod and Svelte; vite, its Svelte plugin, TypeScript and svelte-check', async () => {
    expect(installedNames(await readmeBlock('install: svelte-app'))).toEqual([
      '@toolctx/core',
      '@toolctx/browser',
      'zod',
      'svelte',
      'vite',
      '@sveltejs/vite-plugin-svelte',
      'typescript',
      'svelte-check',
    ]);
  });

  it('passes svelte-check strictly with the typing the package ships', async () => {
    await svelteCheck('svelte', ['src/**/*.ts', 'src/**/*.svelte']);
  });

  it('is refused by svelte-check with a number as source', async () => {
    await expect(svelteCheck('wrong', ['wrong/**/*.svelte'])).rejects.toThrow(
      /Wrong\.svelte.*not assignable to type 'StatusSource \| undefined'/,
    );
  });

  it('builds with vite', async () => {
    preview = await viteBuildAndPreview(dir);
  });

  it('keeps a waiting approval through an unmount and a remount, and Approve settles the call', async () => {
    const { page, errors } = await openPage(browser, `${preview?.url}/`);
    await playRemountScene(page, 'Svelte', 'svelte-remount');
    expect(errors).toEqual([]);
  });

  it('defined after Svelte rendered it, the element takes up the run Svelte set on it', async () => {
    const { page, errors } = await openPage(browser, `${preview?.url}/late.html`);
    const cancel = page.getByRole('button', { name: 'Cancel wait_here' });
    await expect.poll(() => cancel.isVisible(), { timeout: budget(20_000) }).toBe(true);
    expect(await page.locator('toolctx-status').evaluate((element) => element.getAttributeNames())).toEqual(
      [],
    );
    expect(errors).toEqual([]);
  });
});
