import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Journeys run in the order of their file names: a later one meets what an earlier one left. */
class ByName extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

// `npm run journeys`: each user's journey, over HTTP only, against the service exactly as `npm start` runs it
// (started once by test/journeys/global-setup.ts through the same launcher and defaults). One journey at a
// time, in file order: they share the one running service, as people share a deployment.
export default defineConfig({
  test: {
    include: ['test/journeys/**/*.journey.ts'],
    globalSetup: ['test/journeys/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    sequence: { sequencer: ByName },
    testTimeout: 600_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
  },
});
