import assert from 'node:assert/strict';
import digitalLinkJs from 'digital-link.js';
import { describe, test } from 'vitest';
import { gtinKeyPath, parseGtinPath } from '../../../src/standards/gs1/digital-link-path.ts';

const { DigitalLink } = digitalLinkJs;
const GTIN = '09506000134352';

describe('GS1 Digital Link paths under AI 01', () => {
  test('every qualifier shape GS1 allows, in its order, each optional; GS1’s toolkit agrees', () => {
    const shapes: [string, object][] = [
      [`/01/${GTIN}`, {}],
      [`/01/${GTIN}/21/ABC`, { serial: 'ABC' }],
      [`/01/${GTIN}/10/LOT-7/21/ABC`, { lot: 'LOT-7', serial: 'ABC' }],
      [`/01/${GTIN}/10/LOT%2F7`, { lot: 'LOT/7' }],
      [`/01/${GTIN}/22/V1`, { cpv: 'V1' }],
      [`/01/${GTIN}/22/V1/10/L/21/S`, { cpv: 'V1', lot: 'L', serial: 'S' }],
      [`/01/${GTIN}/21/ABC/`, { serial: 'ABC' }],
    ];
    for (const [path, qualifiers] of shapes) {
      const parsed = parseGtinPath(path);
      assert.ok(parsed.ok, path);
      assert.deepEqual(parsed.key, { gtin: GTIN, gtinAsWritten: GTIN, ...qualifiers }, path);
      assert.equal(gtinKeyPath(parsed.key), path.replace(/\/$/, ''), 'the canonical path reads back');
      assert.ok(DigitalLink(`https://id.example${path.replace(/\/$/, '')}`).isValid(), `toolkit: ${path}`);
    }
    const short = parseGtinPath('/01/9506000134352/21/1');
    assert.ok(short.ok);
    assert.equal(short.key.gtin, GTIN);
    assert.equal(short.key.gtinAsWritten, '9506000134352');
  });

  test('syntax errors name the segment at fault; GS1’s toolkit refuses the same paths', () => {
    const errors: [string, string][] = [
      [`/01/${GTIN}/21/1/foo`, 'foo'],
      [`/01/${GTIN}/99/1`, '99'],
      [`/01/${GTIN}/21/1/10/L`, '10'],
      [`/01/${GTIN}/10/L/22/V`, '22'],
      [`/01/${GTIN}/21/1/21/2`, '21'],
      [`/01/${GTIN}/21`, '21'],
      [`/01/${GTIN}/21/a%20b`, 'a%20b'],
      [`/01/${GTIN}/10/${'x'.repeat(21)}`, 'x'.repeat(21)],
      [`/01/${GTIN}/21/%E0%A4%A`, '%E0%A4%A'],
      ['/01/09506000134353/21/1', '09506000134353'],
      ['/01/123/21/1', '123'],
    ];
    for (const [path, segment] of errors) {
      const parsed = parseGtinPath(path);
      assert.equal(parsed.ok, false, path);
      if (!parsed.ok) {
        assert.equal(parsed.error.segment, segment, path);
        assert.ok(parsed.error.detail.length > 10, path);
      }
      let valid = false;
      try {
        const link = DigitalLink(`https://id.example${path}`);
        valid = link.isValid() && link.isCheckDigitValid();
      } catch {
        valid = false;
      }
      // GS1's toolkit is laxer on two: AI 99 (a data attribute it reads) and a repeated AI 21.
      if (!path.includes('/99/') && !path.includes('/21/1/21/')) {
        assert.equal(valid, false, `toolkit refuses ${path}`);
      }
    }
  });
});
