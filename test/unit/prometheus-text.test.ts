import assert from 'node:assert/strict';
import { test } from 'vitest';
import { parseExposition } from '../support/prometheus-text.ts';

test('the exposition parser takes what Prometheus takes (NaN and Inf in any case, as prom-client writes them) and nothing looser', () => {
  const families = parseExposition(
    [
      '# HELP lag Event loop lag.',
      '# TYPE lag gauge',
      'lag Nan',
      '# HELP le_bucket Buckets.',
      '# TYPE le_bucket gauge',
      'le_bucket{le="+Inf"} +Inf',
      'le_bucket{le="x"} -inf',
      '',
    ].join('\n'),
  );
  assert.ok(Number.isNaN(families.get('lag')!.samples[0]!.value));
  assert.deepEqual(
    families.get('le_bucket')!.samples.map((sample) => sample.value),
    [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
  );
  assert.throws(() => parseExposition('# TYPE lag gauge\nlag nonsense\n'), /bad value/);
});
