import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

// Every edge test runs inside workerd with real KV, R2 and Durable Objects (Miniflare's local
// implementations), configured from the same wrangler.jsonc users deploy.
export default defineConfig({
  plugins: [
    cloudflareTest({
      main: './src/worker.ts',
      wrangler: { configPath: './wrangler.jsonc' },
      // The example Worker refuses every request without a token; tests use this one.
      miniflare: { bindings: { TOOLCTX_TOKEN: 'test-token' } },
    }),
  ],
  test: {
    include: ['src/**/*.test.ts'],
    // Miniflare's KV and R2 take tens of milliseconds per write; suites of hundreds need room.
    testTimeout: 60_000,
    // The MCP door's tests, the door suite and the SQLite store need their own Workers:
    // vitest.mcp.config.ts, vitest.doors.config.ts, vitest.stores.config.ts; Node's tests run in
    // Node: vitest.node.config.ts.
    exclude: ['src/mcp/**', 'src/door-suite/**', 'src/store-suite/**', 'src/**/*.node.test.ts'],
  },
});
