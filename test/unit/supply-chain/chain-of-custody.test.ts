import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'vitest';
import { chainOfCustody, integrityHash } from '../../../src/passport/timeline/chain-of-custody.ts';

const base = {
  tokenId: '1',
  actor: 'Acme',
  actorEmail: null,
  locationName: 'Hamburg',
  latitude: 53.5,
  longitude: 10,
  metadata: {},
};
const events = [
  { ...base, id: 5, action: 'SHIPPED', timestamp: '2026-01-02T00:00:00.000Z', transactionHash: '0xbb' },
  { ...base, id: 2, action: 'MINT', timestamp: '2026-01-01T00:00:00.000Z', transactionHash: '0xaa' },
  { ...base, id: 9, action: 'DELIVERED', timestamp: '2026-01-03T00:00:00.000Z', transactionHash: null },
];

// Written out independently of the implementation: each event as compact JSON with keys in sorted order.
function lineOf(e: (typeof events)[number]): string {
  return (
    `{"action":${JSON.stringify(e.action)},"actor":"Acme","actorEmail":null,"id":${e.id},"latitude":53.5,` +
    `"locationName":"Hamburg","longitude":10,"metadata":{},"timestamp":"${e.timestamp}","tokenId":"1",` +
    `"transactionHash":${JSON.stringify(e.transactionHash)}}`
  );
}

test('integrity hash is a SHA-256 chain from 32 zero bytes over the events in id order', () => {
  let h = Buffer.alloc(32);
  for (const e of [...events].sort((a, b) => a.id - b.id)) {
    h = createHash('sha256')
      .update(Buffer.concat([h, Buffer.from(lineOf(e), 'utf8')]))
      .digest();
  }
  assert.equal(integrityHash(events), `0x${h.toString('hex')}`);
  assert.equal(integrityHash([]), `0x${'00'.repeat(32)}`);
  const custody = chainOfCustody(events);
  assert.deepEqual(
    { ...custody, integrityHash: undefined },
    {
      totalEvents: 3,
      firstSeen: '2026-01-01T00:00:00.000Z',
      lastSeen: '2026-01-03T00:00:00.000Z',
      integrityHash: undefined,
    },
  );
});

test('any change to an event, or leaving one out, changes the hash', () => {
  const original = integrityHash(events);
  assert.notEqual(integrityHash(events.slice(1)), original);
  assert.notEqual(integrityHash([{ ...events[0]!, latitude: 53.6 }, events[1]!, events[2]!]), original);
  assert.notEqual(
    integrityHash([events[0]!, events[1]!, { ...events[2]!, transactionHash: '0xcc' }]),
    original,
  );
});
