import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

// The SQLite artifact store in a Durable Object's own storage, against src/store-suite/test-worker.ts
// in workerd: its own Worker, whose one Durable Object class has a SQLite migration.
export default defineConfig({
  plugins: [
    cloudflareTest({
      main: './src/store-suite/test-worker.ts',
      wrangler: { configPath: './src/store-suite/wrangler.test.jsonc' },
    }),
  ],
  test: {
    testTimeout: 60_000,
    include: ['src/store-suite/**/*.test.ts'],
  },
});
