import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { mergeLayers, sourcesOf } from '../../src/passport/content/merge-layers.ts';

const MODEL = 'urn:uuid:00000000-0000-4000-8000-000000000001';
const BATCH = 'urn:uuid:00000000-0000-4000-8000-000000000002';
const ITEM = 'urn:uuid:00000000-0000-4000-8000-000000000003';

describe('the inheritance merge (docs/granularity.md)', () => {
  test('objects merge member by member, the more specific level wins, arrays replace whole', () => {
    const { data, sources } = mergeLayers([
      { dppId: MODEL, data: { a: { x: 1, y: 2 }, list: [1, 2, 3], keep: 'model' } },
      { dppId: BATCH, data: { a: { y: 20 }, list: [9] } },
      { dppId: ITEM, data: { a: { z: 300 }, gone: null } },
    ]);
    assert.deepEqual(data, { a: { x: 1, y: 20, z: 300 }, list: [9], keep: 'model', gone: null });
    assert.deepEqual(sources, {
      '/a/x': MODEL,
      '/a/y': BATCH,
      '/a/z': ITEM,
      '/list': BATCH,
      '/keep': MODEL,
      '/gone': ITEM,
    });
  });

  test('a scalar over an object replaces it and its sources; pointers escape ~ and /', () => {
    const { data, sources } = mergeLayers([
      { dppId: MODEL, data: { o: { deep: { v: 1 } }, 'a/b~c': 1 } },
      { dppId: ITEM, data: { o: 'flat' } },
    ]);
    assert.deepEqual(data, { o: 'flat', 'a/b~c': 1 });
    assert.deepEqual(sources, { '/o': ITEM, '/a~1b~0c': MODEL });
  });

  test('sourcesOf keeps only the leaves still shown (after disclosure), with a prefix', () => {
    const { sources } = mergeLayers([{ dppId: MODEL, data: { open: 1, secret: 2 } }]);
    assert.deepEqual(sourcesOf({ open: 1 }, sources, '/spec'), { '/spec/open': MODEL });
  });
});
