import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { parseCsv } from '../../src/lifecycle/provision/csv.ts';
import { readXlsx, SpreadsheetUnreadable } from '../../src/lifecycle/provision/xlsx.ts';
import { writeXlsx } from '../support/xlsx-writer.ts';

describe('spreadsheet readers of the import', () => {
  test('CSV: quotes, doubled quotes, separators and line breaks inside quotes, CRLF, BOM, blank lines', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n\r\n1,,3';
    assert.deepEqual(parseCsv(text), [
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\nlines'],
      [''],
      ['1', '', '3'],
    ]);
  });

  test('CSV: semicolons when the header is separated by them (a spreadsheet in many locales)', () => {
    assert.deepEqual(parseCsv('a;b\n"1,5";2\n'), [
      ['a', 'b'],
      ['1,5', '2'],
    ]);
  });

  test('XLSX: shared and inline strings, escaped characters, gaps of rows and cells', () => {
    const rows = [
      ['material_number', 'order_id'],
      ['M&1 <a>', 'PO "7"'],
      ['Ünïcode ✓', ''],
    ];
    assert.deepEqual(readXlsx(writeXlsx(rows)), [
      ['material_number', 'order_id'],
      ['M&1 <a>', 'PO "7"'],
      ['Ünïcode ✓', ''],
    ]);
    assert.throws(() => readXlsx(Buffer.from('PK\u0003\u0004 not really')), SpreadsheetUnreadable);
  });
});
