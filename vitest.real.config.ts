import { defineConfig } from 'vitest/config';

// The real tier: FlowOps against a real kube-apiserver + etcd (+ kube-controller-manager) built
// from source by scripts/control-plane/ and cached per machine. `npm run test:real`.
export default defineConfig({
  test: {
    include: ['test/real/**/*.test.ts'],
    // Redis first (its URL reaches the files through REDIS_URL), then the control plane's build.
    globalSetup: ['test/setup/redis.global.ts', 'test/real/control-plane.global.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // Each file starts its own control plane (etcd + apiserver ≈ 0.5 GiB): two at once on 2 cores.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
