import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * SHA-256 of every file under bench/ (path and bytes, in path order): docs/benchmarks.md records the hash of the
 * code that wrote it, and a test compares it with the code as it is (test/unit/benchmarks-page.test.ts).
 */
export function benchSourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of filesUnder(BENCH_DIR)
    .map((path) => relative(BENCH_DIR, path).split('\\').join('/'))
    .sort()) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(join(BENCH_DIR, file)));
    hash.update('\n');
  }
  return hash.digest('hex');
}

/** The marker line docs/benchmarks.md carries. */
export const SOURCES_MARKER = /<!-- bench sources sha256: ([0-9a-f]{64}) -->/;
