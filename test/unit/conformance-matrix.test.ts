import assert from 'node:assert/strict';
import { test } from 'vitest';
import { type Row, renderMatrix } from '../conformance/matrix-reporter.ts';

const meta = { checkedWith: 'tool 1.0.0 (npm)', reference: 'https://example.org/standard' };

test('the conformance matrix: a summary per standard, then each clause with its result and note', () => {
  const rows: Row[] = [
    { clause: 'a: first | clause', result: 'pass', note: '3 URIs judged', meta },
    { clause: 'b: second', result: 'FAIL', note: 'expected 1\nto be 2', meta },
    { clause: 'c: third', result: 'left out', note: 'not public', meta: { ...meta, leftOut: 'not public' } },
  ];
  const text = renderMatrix(new Map([['Some Standard 1.0', rows]]));
  assert.match(text, /^# Conformance matrix\n/);
  assert.ok(
    text.includes('| Some Standard 1.0 | tool 1.0.0 (npm) | 1 | 1 | 1 | 0 |'),
    'the summary counts each result',
  );
  assert.ok(text.includes('## Some Standard 1.0'));
  assert.ok(text.includes('the standard: [https://example.org/standard](https://example.org/standard)'));
  // A pipe in a name or a newline in a reason cannot break the table.
  assert.ok(text.includes('| a: first \\| clause | pass | 3 URIs judged |'));
  assert.ok(text.includes('| b: second | FAIL | expected 1 to be 2 |'));
  assert.ok(text.includes('| c: third | left out | not public |'));
});
