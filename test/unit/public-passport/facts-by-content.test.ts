import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { contentKey, FactsByContent } from '../../../src/passport/views/facts-by-content.ts';

describe('what is made of a passport row is kept while the row reads the same', () => {
  test('the same row gives the same value; any changed value makes it again', () => {
    const memo = new FactsByContent<{ made: number }>(10);
    let made = 0;
    const make = () => ({ made: ++made });
    const row = { token_id: '7', verification_count: 3, levels: '[]', revoked_at: null };
    const first = memo.of('test\u00007', row, make);
    assert.equal(memo.of('test\u00007', { ...row }, make), first);
    const tapped = memo.of('test\u00007', { ...row, verification_count: 4 }, make);
    assert.notEqual(tapped, first);
    assert.equal(made, 2);
    // Another passport with the same values is made on its own.
    assert.notEqual(memo.of('test\u00008', row, make), first);
  });

  test('null and the empty text, and values that move between columns, are different rows', () => {
    assert.notEqual(contentKey({ a: null, b: 'x' }), contentKey({ a: '', b: 'x' }));
    assert.notEqual(contentKey({ a: 'x', b: '' }), contentKey({ a: '', b: 'x' }));
  });

  test('at most `limit` passports are kept, the least recently read dropped first', () => {
    const memo = new FactsByContent<number>(2);
    let made = 0;
    const make = () => ++made;
    memo.of('a', { v: 1 }, make);
    memo.of('b', { v: 1 }, make);
    memo.of('a', { v: 1 }, make);
    memo.of('c', { v: 1 }, make);
    assert.equal(made, 3);
    memo.of('a', { v: 1 }, make);
    assert.equal(made, 3, 'a was read lately: kept');
    memo.of('b', { v: 1 }, make);
    assert.equal(made, 4, 'b was dropped');
  });
});
