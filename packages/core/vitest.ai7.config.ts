import { defineConfig } from 'vitest/config';

// The AI SDK tests again on ai 7 (installed as `ai-v7`), which needs Node 22:
// `<node 22> node_modules/vitest/vitest.mjs run --config vitest.ai7.config.ts`.
export default defineConfig({
  resolve: { alias: [{ find: /^ai(\/test)?$/, replacement: 'ai-v7$1' }] },
  test: {
    include: ['src/ai-sdk/approval-flow.test.ts'],
    testTimeout: 30_000,
  },
});
