import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'vitest';
import {
  deliveryHeaders,
  envelopeBody,
  generateWebhookSecret,
  isWebhookSecret,
  serviceSignature,
  standardSignature,
  verifyServiceSignature,
  verifyStandardSignature,
} from '../../src/webhooks/signing.ts';

describe('webhook signing', () => {
  test('secrets are whsec_ + 32 random bytes in base64', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    assert.ok(isWebhookSecret(a), a);
    assert.notEqual(a, b);
    assert.equal(Buffer.from(a.slice('whsec_'.length), 'base64').length, 32);
  });

  test('the envelope is exactly {eventId, eventType, timestamp, data} with an ISO 8601 UTC timestamp', () => {
    const body = envelopeBody({
      eventId: '0b6d3c57-41f3-4a4c-9f0a-8d2b3f5a6e7c',
      eventType: 'asset.shipped',
      occurredAt: new Date(Date.UTC(2026, 10, 22, 4, 5, 6, 789)),
      data: { tokenId: '7', latitude: 53.546, longitude: 9.966 },
    });
    assert.equal(
      body,
      '{"eventId":"0b6d3c57-41f3-4a4c-9f0a-8d2b3f5a6e7c","eventType":"asset.shipped",' +
        '"timestamp":"2026-11-22T04:05:06.789Z","data":{"tokenId":"7","latitude":53.546,"longitude":9.966}}',
    );
  });

  test('service-signature is hex HMAC-SHA256 of the raw body keyed with the whole secret string', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"eventId":"e1"}';
    const expected = createHmac('sha256', secret).update(body).digest('hex');
    assert.equal(serviceSignature(secret, body), expected);
    assert.match(expected, /^[0-9a-f]{64}$/);
    assert.equal(serviceSignature(secret, Buffer.from(body)), expected, 'bytes and string agree');
  });

  test('webhook-signature reproduces the published Standard Webhooks test vector', () => {
    assert.equal(
      standardSignature(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  test('one secret: every header, each signature verifies, a tampered body does not', () => {
    const secret = generateWebhookSecret();
    const body =
      '{"eventId":"e1","eventType":"asset.minted","timestamp":"2026-01-01T00:00:00.000Z","data":{}}';
    const headers = deliveryHeaders({
      eventId: 'e1',
      body,
      secrets: [secret],
      timestampSeconds: 1_700_000_000,
    });
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['user-agent'], 'dpp-webhooks/1');
    assert.equal(headers['webhook-id'], 'e1');
    assert.equal(headers['webhook-timestamp'], '1700000000');
    assert.match(headers['service-signature']!, /^[0-9a-f]{64}$/);
    assert.match(headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}=$/);

    assert.ok(verifyServiceSignature(headers['service-signature']!, body, secret));
    assert.ok(!verifyServiceSignature(headers['service-signature']!, `${body} `, secret));
    assert.ok(!verifyServiceSignature(headers['service-signature']!, body, generateWebhookSecret()));
    const standard = {
      id: headers['webhook-id']!,
      timestamp: headers['webhook-timestamp']!,
      signature: headers['webhook-signature']!,
    };
    assert.ok(verifyStandardSignature(standard, body, secret, { nowSeconds: 1_700_000_100 }));
    assert.ok(
      !verifyStandardSignature(standard, body.replace('minted', 'sold'), secret, {
        nowSeconds: 1_700_000_100,
      }),
    );
    assert.ok(
      !verifyStandardSignature(standard, body, secret, { nowSeconds: 1_700_000_000 + 301 }),
      'outside the 5-minute tolerance',
    );
    assert.ok(
      !verifyStandardSignature({ ...standard, id: 'e2' }, body, secret, { nowSeconds: 1_700_000_000 }),
      'the id is signed',
    );
  });

  test('rotation overlap: service-signature is one HMAC by the newest secret; webhook-signature has both', () => {
    const [fresh, old] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"eventId":"e9"}';
    const headers = deliveryHeaders({
      eventId: 'e9',
      body,
      secrets: [fresh, old],
      timestampSeconds: 1_800_000_000,
    });
    assert.equal(headers['service-signature'], serviceSignature(fresh, body));
    const v1 = headers['webhook-signature']!.split(' ');
    assert.deepEqual(v1, [
      standardSignature(fresh, 'e9', 1_800_000_000, body),
      standardSignature(old, 'e9', 1_800_000_000, body),
    ]);
    const standard = { id: 'e9', timestamp: '1800000000', signature: headers['webhook-signature']! };
    assert.ok(verifyServiceSignature(headers['service-signature']!, body, fresh));
    assert.ok(!verifyServiceSignature(headers['service-signature']!, body, old));
    for (const secret of [fresh, old]) {
      assert.ok(verifyStandardSignature(standard, body, secret, { nowSeconds: 1_800_000_000 }));
    }
    const stranger = generateWebhookSecret();
    assert.ok(!verifyServiceSignature(headers['service-signature']!, body, stranger));
    assert.ok(!verifyStandardSignature(standard, body, stranger, { nowSeconds: 1_800_000_000 }));
  });

  test('a delivery without a secret is a programming error', () => {
    assert.throws(() => deliveryHeaders({ eventId: 'e', body: '{}', secrets: [], timestampSeconds: 1 }));
  });
});
