import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { chromiumBrowser } from './chromium.js';
import { budget } from './slowdown.js';

const coreTests = '../packages/core/src/**/*.test.ts';
// Tests that need AsyncLocalStorage (an OpenTelemetry context manager's): Node and nodejs_compat only.
const asyncContextTests = '../packages/core/src/**/*.async-context.test.ts';

// Every project's budgets scale with the machine (slowdown.ts); so does expect.poll's, whose 1 s
// default is a race on a loaded machine. (An inline project inherits nothing from the root.)
const waits = { expect: { poll: { timeout: budget(5000) } } };

export default defineConfig({
  test: {
    projects: [
      // Core's own suite, unchanged, inside workerd and in Chromium: proof that core is
      // platform-neutral. (In Node it runs from packages/core.)
      {
        plugins: [cloudflareTest({ wrangler: { configPath: './core-runtimes/wrangler.jsonc' } })],
        test: {
          ...waits,
          name: 'core-in-workerd',
          include: [coreTests],
          exclude: [asyncContextTests],
          // One module graph for all of core's files, as they share no state: 21 s here, where an
          // isolate per file (79 of them) took 150 s, most of it importing core again.
          isolate: false,
          testTimeout: budget(30_000),
        },
      },
      {
        plugins: [
          cloudflareTest({ wrangler: { configPath: './core-runtimes/wrangler-nodejs-compat.jsonc' } }),
        ],
        test: {
          ...waits,
          name: 'otel-in-workerd',
          include: [asyncContextTests],
          testTimeout: budget(30_000),
        },
      },
      {
        test: {
          ...waits,
          name: 'core-in-chromium',
          include: [coreTests],
          exclude: [asyncContextTests],
          browser: chromiumBrowser,
          // As in workerd: one page for all of core's files, 21 s here instead of 50 s.
          isolate: false,
          testTimeout: budget(30_000),
        },
      },
      // The secret-hygiene scenario, in-process and through its own Worker (secrets/worker.ts).
      {
        plugins: [
          cloudflareTest({
            main: './secrets/worker.ts',
            wrangler: { configPath: './secrets/wrangler.jsonc' },
          }),
        ],
        test: {
          ...waits,
          name: 'secrets-in-workerd',
          include: ['secrets/**/*.test.ts'],
          testTimeout: budget(60_000),
        },
      },
      {
        test: { ...waits, name: 'node', include: ['node/**/*.test.ts'], testTimeout: budget(60_000) },
      },
      // Worker behaviour where users meet it: the example Worker and the MCP test Worker under
      // their own `wrangler dev` on loopback (hang-ups, restarts, alarms, sessions, limits).
      {
        test: {
          ...waits,
          name: 'worker',
          include: ['worker/**/*.test.ts'],
          testTimeout: budget(60_000),
          hookTimeout: budget(120_000),
        },
      },
      // The official MCP conformance suite against serveMcp on Node and the Worker's /mcp under
      // `wrangler dev`, judged against conformance/expected-failures.json.
      {
        test: {
          ...waits,
          name: 'conformance',
          include: ['conformance/**/*.test.ts'],
          testTimeout: budget(120_000),
          hookTimeout: budget(180_000),
        },
      },
      // Real MCP clients and servers: the MCP Inspector CLI against the Worker's /mcp, and mcpTools
      // against the reference server-everything (both from the conformance runner install).
      {
        test: {
          ...waits,
          name: 'mcp-clients',
          include: ['mcp-clients/**/*.test.ts'],
          testTimeout: budget(60_000),
          hookTimeout: budget(180_000),
        },
      },
      // Where users stand: the packed tarballs installed with npm into fresh projects outside the
      // repository, every README quick start copied verbatim, type-checked, built and run.
      {
        test: {
          ...waits,
          name: 'consumer',
          include: ['consumer/**/*.test.ts'],
          globalSetup: ['consumer/pack.ts'],
          // Strict type checks of whole dependency trees (skipLibCheck false) take a minute on a busy machine.
          testTimeout: budget(240_000),
          hookTimeout: budget(420_000),
        },
      },
      // The demo end to end: its own `wrangler dev` and headless Chromium (screenshots in e2e/output).
      {
        test: {
          ...waits,
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: budget(60_000),
          hookTimeout: budget(180_000),
        },
      },
    ],
  },
});
