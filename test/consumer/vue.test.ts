// The Vue guide in a fresh npm project: the README's component copied verbatim into a Vue 3 + vite
// app, checked by vue-tsc with strict settings, strict templates and the typing the package ships
// (the app declares nothing), built with vite and run in headless Chromium, where the widget is
// unmounted and mounted again while a call waits for approval.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { createApp } from 'vue';
import { z } from 'zod';
import RunStatus from './RunStatus.vue';

const publishNote = defineTool({
  name: 'publish_note',
  title: 'Publish a note',
  description: 'Publishes a short note. Needs a person’s approval.',
  inputSchema: z.object({ text: z.string() }),
  needsApproval: true,
  execute: async ({ text }) => ({ published: text }),
});
const run = createRuntime({ tools: [publishNote], approval: createMemoryApprovalPort() }).startRun();
const note = { text: 'Hello from Vue' };
const options = { actions: { details: () => ({ title: 'Publish a note', args: note }) } };
createApp(RunStatus, { run, options }).mount('#root');
await run.call({ tool: 'publish_note', args: note });
`;
const files = {
  'index.html': scenePage('Vue status', '/src/main.ts'),
  'src/main.ts': main,
  // Checked apart: the shipped typing refuses what is no source.
  'wrong/Wrong.vue': `<script setup lang="ts">
import '@toolctx/browser/vue';
</script>

<template>
  <toolctx-status :source="42" />
</template>
`,
  // As the guide says: Vue's compiler is told <toolctx-status> is an element, not a component.
  'vite.config.js': `import vue from '@vitejs/plugin-vue';
export default {
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'toolctx-status' } } })],
  build: { target: 'es2022' },
};
`,
};
const compilerOptions = { ...strictOptions, lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [] };
let dir = '';
let preview: { url: string; stop(): void } | undefined;
const browser: { current?: Browser } = {};

beforeAll(async () => {
  dir = await npmProject(
    'vue',
    {
      '@toolctx/core': await tarball('core'),
      '@toolctx/browser': await tarball('browser'),
      zod: versions.zod,
      vue: versions.vue,
    },
    {
      vite: versions.vite,
      '@vitejs/plugin-vue': versions['@vitejs/plugin-vue'],
      typescript: versions.typescript,
      'vue-tsc': versions['vue-tsc'],
    },
  );
  await writeFiles(dir, {
    ...files,
    'src/RunStatus.vue': await readmeBlock('example: docs/examples/vue-status.vue'),
  });
});

afterAll(async () => {
  await browser.current?.close();
  preview?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs vue-tsc on what `include` names, with the strict settings and strict templates. */
async function vueTsc(name: string, include: string[]): Promise<void> {
  const config = { compilerOptions, include, vueCompilerOptions: { strictTemplates: true } };
  await writeFile(join(dir, `tsconfig.${name}.json`), JSON.stringify(config, null, 2));
  await sh(join(dir, 'node_modules/.bin/vue-tsc'), ['-p', `tsconfig.${name}.json`], { cwd: dir });
}

describe('the Vue guide from the tarballs', () => {
  it('installs with the README’s line: core, browser, zod and Vue; vite, its Vue plugin, TypeScript and vue-tsc', async () => {
    expect(installedNames(await readmeBlock('install: vue-app'))).toEqual([
      '@toolctx/core',
      '@toolctx/browser',
      'zod',
      'vue',
      'vite',
      '@vitejs/plugin-vue',
      'typescript',
      'vue-tsc',
    ]);
  });

  it('passes vue-tsc strictly, strict templates too, with the typing the package ships', async () => {
    await vueTsc('vue', ['src/**/*.ts', 'src/**/*.vue']);
  });

  it('is refused by vue-tsc with a number as source', async () => {
    await expect(vueTsc('wrong', ['wrong/**/*.vue'])).rejects.toThrow(
      /Wrong\.vue.*not assignable to type 'StatusSource \| undefined'/,
    );
  });

  it('builds with vite', async () => {
    preview = await viteBuildAndPreview(dir);
  });

  it('keeps a waiting approval through an unmount and a remount, and Approve settles the call', async () => {
    const { page, errors } = await openPage(browser, `${preview?.url}/`);
    await playRemountScene(page, 'Vue', 'vue-remount');
    expect(errors).toEqual([]);
  });
});
