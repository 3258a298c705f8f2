import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files are mostly waiting on PostgreSQL, anvil and Temporal, so two files share a core well.
const workers = Number(process.env.TEST_CONCURRENCY ?? Math.max(2, availableParallelism()));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: workers,
    fileParallelism: true,
    // A hang fails the one test or hook with a message instead of stalling CI.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    coverage: {
      provider: 'v8',
      include: ['src/**', 'api/**', 'worker/**', 'workflows/**', 'activities/**'],
      reporter: ['text-summary', 'text'],
    },
  },
});
