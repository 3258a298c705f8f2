import { defineConfig } from 'vitest/config';
import MatrixReporter from './test/conformance/matrix-reporter.ts';

// `npm run conformance`: validators we did not write judge the service as `npm start` runs it (started once
// by test/conformance/global-setup.ts). One check file at a time: they share the one running service and the
// passport the first of them makes. The matrix reporter writes docs/conformance.md; it is added in
// configureVitest, so reporters named on the command line (CI passes --reporter=json) do not replace it.
export default defineConfig({
  plugins: [
    {
      name: 'conformance-matrix',
      configureVitest({ vitest }) {
        if (!vitest.config.reporters.some((reporter) => reporter instanceof MatrixReporter)) {
          vitest.config.reporters.push(new MatrixReporter());
        }
      },
    },
  ],
  test: {
    include: ['test/conformance/**/*.conformance.ts'],
    globalSetup: ['test/conformance/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
    teardownTimeout: 60_000,
  },
});
