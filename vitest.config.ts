import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn servers and real kubectl; two cores are shared between files.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
