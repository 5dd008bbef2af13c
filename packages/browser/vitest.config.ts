import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumArgs, chromiumPath } from './scripts/chromium.mjs';
import { runTestServer } from './scripts/run-test-server.mjs';
import { sseTestServer } from './scripts/sse-test-server.mjs';

const chromium = playwright({ launchOptions: { executablePath: chromiumPath, args: chromiumArgs } });

// `*.test.ts` run in Node (IndexedDB from fake-indexeddb) and in real Chromium;
// `*.browser.test.ts` need a real page (DOM, OPFS, Workers) and run in Chromium only.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['src/**/*.test.ts'],
          // Store suites make hundreds of IndexedDB writes; a busy 2-core CI machine needs room.
          testTimeout: 30_000,
          exclude: ['src/**/*.browser.test.ts'],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        // The remote-run client's tests read server-sent events from this server, and call runs
        // through the edge's own HTTP door, served here on the page's origin.
        plugins: [sseTestServer(), runTestServer()],
        // Pre-bundled up front so Vite does not reload the page mid-test when it first meets axe-core.
        optimizeDeps: { include: ['axe-core'] },
        test: {
          name: 'chromium',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            provider: chromium,
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
    ],
  },
});
