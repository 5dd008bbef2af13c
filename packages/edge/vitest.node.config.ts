import { defineConfig } from 'vitest/config';

// `*.node.test.ts` run in plain Node, outside workerd: the package's main entry and the HTTP door
// as a Node host uses them (served by @hono/node-server, runs in memory). They import the built
// package (`@toolctx/edge` resolves to dist), so the build comes first.
export default defineConfig({
  test: {
    include: ['src/**/*.node.test.ts'],
    testTimeout: 30_000,
  },
});
