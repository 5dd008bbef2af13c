import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

// The door conformance suite through the HTTP+SSE and MCP doors, against
// src/door-suite/test-worker.ts in workerd: its own Worker, serving the suite's tools.
export default defineConfig({
  plugins: [
    cloudflareTest({
      main: './src/door-suite/test-worker.ts',
      wrangler: { configPath: './src/door-suite/wrangler.test.jsonc' },
    }),
  ],
  test: {
    testTimeout: 60_000,
    include: ['src/door-suite/**/*.test.ts'],
  },
});
