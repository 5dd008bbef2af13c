import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

// The MCP door's interop tests: the official MCP SDK client against src/mcp/test-worker.ts in
// workerd. Its own Worker and wrangler config, apart from the Worker users deploy.
export default defineConfig({
  plugins: [
    cloudflareTest({
      main: './src/mcp/test-worker.ts',
      wrangler: { configPath: './src/mcp/wrangler.test.jsonc' },
    }),
  ],
  test: {
    testTimeout: 60_000,
    include: ['src/mcp/**/*.test.ts'],
  },
});
