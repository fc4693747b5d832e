import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/real runs against a real kube-apiserver built from source: `npm run test:real`
    // (vitest.real.config.ts). The default run stays fast and needs no Go.
    exclude: [...configDefaults.exclude, 'test/real/**'],
    globalSetup: ['test/setup/redis.global.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn servers and real kubectl; two cores are shared between files.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
