// Runs the whole suite (or the files/folders given as arguments) with node's test runner.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolveTestDatabaseServer } from './test-database.ts';

const args = process.argv.slice(2);
const isDirectory = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
const targets = (args.length > 0 ? args : ['test']).map((a) =>
  isDirectory(a) ? `${a.replace(/\/+$/, '')}/**/*.test.ts` : a,
);
const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(2, availableParallelism()));

const started = Date.now();
const { adminUrl, embedded } = await resolveTestDatabaseServer((line) => console.log(line));
const child = spawn(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', ...targets],
  {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: adminUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
);
const code = await new Promise<number>((resolve) =>
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))),
);
await embedded?.stop();
console.log(`tests finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(code);
