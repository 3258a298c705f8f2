import assert from 'node:assert/strict';
import { keccak256, toUtf8Bytes } from 'ethers';
import { describe, test } from 'vitest';
import { warrantyEnd } from '../../../src/accounts/settings/company-settings.ts';
import { webhookForAction } from '../../../src/lifecycle/supply-chain/actions.ts';
import { metadataProblem } from '../../../src/lifecycle/supply-chain/metadata-limits.ts';
import { eventDataHash } from '../../../src/passport/timeline/event-view.ts';
import { maskEmail } from '../../../src/passport/timeline/mask-email.ts';

describe('supply-chain rules', () => {
  test('e-mail addresses are masked keeping first letters and the top-level domain', () => {
    assert.equal(maskEmail('jane.doe@acme.example.com'), 'j***@a***.com');
    assert.equal(maskEmail('x@y.de'), 'x***@y***.de');
    assert.equal(maskEmail('nodomain'), 'n***');
    assert.equal(maskEmail('local@host'), 'l***@h***');
    assert.equal(maskEmail(null), null);
    assert.equal(maskEmail(''), null);
  });

  test('metadata bounds: size, key count over all levels, depth', () => {
    assert.equal(metadataProblem({ temperature_celsius: 4.5, nested: { a: { b: 1 } } }), undefined);
    assert.match(metadataProblem({ blob: 'x'.repeat(9000) }) ?? '', /bytes/);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    assert.match(metadataProblem(many) ?? '', /51 keys/);
    const spread = { a: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])) };
    assert.match(metadataProblem(spread) ?? '', /51 keys/);
    assert.match(metadataProblem({ a: { b: { c: {} } } }) ?? '', /4 levels/);
    assert.match(metadataProblem({ a: [[{}]] }) ?? '', /4 levels/);
  });

  test('action → webhook and the spec action it carries (the logged one is loggedAction)', () => {
    const sent = (eventType: string, action: string) => ({ eventType, action });
    assert.deepEqual(webhookForAction('SHIPPED'), sent('asset.shipped', 'SHIPPED'));
    assert.deepEqual(webhookForAction('DELIVERED'), sent('asset.delivered', 'DELIVERED'));
    for (const logged of ['CUSTOMS_CLEARED', 'EXPORT_CLEARED', 'IMPORT_CLEARED']) {
      assert.deepEqual(webhookForAction(logged), sent('asset.customs_cleared', 'CUSTOMS_CLEARED'));
    }
    assert.deepEqual(webhookForAction('SOLD'), sent('asset.sold', 'SOLD'));
    assert.deepEqual(webhookForAction('INITIAL_SALE'), sent('asset.sold', 'SOLD'));
    assert.equal(webhookForAction('QC_PASSED'), undefined);
    assert.equal(webhookForAction('MINT'), undefined);
  });

  test('a warranty ends the same day of the month, or the last day of a shorter month', () => {
    const end = (iso: string, months: number) => warrantyEnd(new Date(iso), months).toISOString();
    assert.equal(end('2026-03-15T10:20:30.000Z', 24), '2028-03-15T10:20:30.000Z');
    assert.equal(end('2026-01-31T23:59:00.000Z', 1), '2026-02-28T23:59:00.000Z');
    assert.equal(end('2027-01-31T08:00:00.000Z', 13), '2028-02-29T08:00:00.000Z');
    assert.equal(end('2028-02-29T00:00:00.000Z', 12), '2029-02-28T00:00:00.000Z');
    assert.equal(end('2026-11-30T12:00:00.000Z', 3), '2027-02-28T12:00:00.000Z');
  });

  test('dataHash is keccak256 of the sorted-key compact JSON of the anchored fields', () => {
    const content = {
      id: 7,
      tokenId: '3',
      action: 'SHIPPED',
      actor: 'Acme',
      actorEmail: 'j***@a***.com',
      locationName: 'Hamburg',
      latitude: 53.5461,
      longitude: 9.9937,
      metadata: { z: 1, a: { y: true, b: 'x' } },
      timestamp: '2026-01-02T03:04:05.678Z',
    };
    const written =
      '{"action":"SHIPPED","actor":"Acme","actorEmail":"j***@a***.com","id":7,"latitude":53.5461,' +
      '"locationName":"Hamburg","longitude":9.9937,"metadata":{"a":{"b":"x","y":true},"z":1},' +
      '"timestamp":"2026-01-02T03:04:05.678Z","tokenId":"3"}';
    assert.equal(
      eventDataHash({ ...content, extra: 'ignored' } as typeof content),
      keccak256(toUtf8Bytes(written)),
    );
  });
});
