import { defineConfig } from 'vitest/config';

// `npm run chaos`: processes killed under load, the database and the chain node taken away mid-flight. One
// scenario at a time: each one owns its processes and times its faults, and they must not disturb each other.
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.chaos.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
});
