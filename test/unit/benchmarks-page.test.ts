import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';
import { benchSourcesHash, SOURCES_MARKER } from '../../bench/report/sources.ts';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

// docs/benchmarks.md is written by `npm run bench -- --report`; it must come from the bench code as it is, so a
// change to a bench without a new report run fails here. Only where the page comes from is checked, never
// whether its figures meet their targets.
describe('docs/benchmarks.md', () => {
  const page = readFileSync(root('docs/benchmarks.md'), 'utf8');

  test('was written by the current bench code (`npm run bench -- --report` writes it again)', () => {
    const recorded = SOURCES_MARKER.exec(page)?.[1];
    assert.ok(recorded, 'the page records the hash of the bench sources that wrote it');
    assert.equal(
      recorded,
      benchSourcesHash(),
      'bench/ changed since the page was written: run `npm run bench -- --report` and commit docs/benchmarks*',
    );
  });

  test('is a full run with its charts, linked from the README', () => {
    assert.ok(!page.includes('**A quick run**'), 'the page is written by a full run, not --quick');
    const charts = [...page.matchAll(/!\[[^\]]+\]\((benchmarks\/[\w-]+\.svg)\)/g)].map((match) => match[1]!);
    assert.deepEqual(charts.sort(), [
      'benchmarks/gas-per-passport.svg',
      'benchmarks/ratios.svg',
      'benchmarks/volume-growth.svg',
    ]);
    for (const chart of charts) assert.ok(existsSync(root(`docs/${chart}`)), `${chart} exists`);
    assert.match(readFileSync(root('README.md'), 'utf8'), /\(docs\/benchmarks\.md\)/);
  });
});
