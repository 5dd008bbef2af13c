import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Suites run hundreds of store operations; a shared 2-core CI machine needs room.
    testTimeout: 30_000,
  },
});
