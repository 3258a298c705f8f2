// The closing line of a CI run: every test of every suite CI ran, as "ci: N passed, N failed, N skipped".
// .ci/run records each step in steps.tsv (name, exit code, and the JSON report vitest wrote, if any); a step
// without a report (start check, lint, typecheck, fuzz) counts as one test of its own.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: ci-summary <results dir>');
const steps = existsSync(join(dir, 'steps.tsv'))
  ? readFileSync(join(dir, 'steps.tsv'), 'utf8').trim().split('\n').filter(Boolean)
  : [];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const line of steps) {
  const [name, exit, report] = line.split('\t');
  const json =
    report && existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as VitestReport) : undefined;
  if (json) {
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    skipped += json.numPendingTests + json.numTodoTests;
    // A suite that failed outside any test (a setup error, an unhandled error) still fails the run.
    if (exit !== '0' && json.numFailedTests === 0) failed += 1;
    // Worded unlike the closing line, so that log readers take only the last line for the run's count.
    console.log(
      `ci: ${name} suite: passed ${json.numPassedTests}, failed ${json.numFailedTests} (exit ${exit})`,
    );
  } else if (exit === '0') {
    passed += 1;
  } else {
    failed += 1;
    console.log(`ci: ${name} failed (exit ${exit})`);
  }
}
console.log(`ci: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
