import assert from 'node:assert/strict';
import { test } from 'vitest';
import { generateApiKey } from '../../src/accounts/keys/api-key-format.ts';
import { REDACTED, redactHeaders, redactJson, redactText } from '../../src/accounts/request-log/redact.ts';
import { storedBody } from '../../src/accounts/request-log/stored-body.ts';
import { generateWebhookSecret } from '../../src/webhooks/signing.ts';

const key = generateApiKey('test');
const secret = generateWebhookSecret();
const jwt =
  'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiIsImNvbXBhbnlJZCI6ImFiYyJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';

test('credentials by name: passwords, secrets, tokens, keys, chip keys, card and bank data', () => {
  const redacted = redactJson({
    email: 'ann@example.com',
    password: 'correct horse battery staple',
    newPassword: 'another one',
    clientSecret: 'oidc-secret',
    client_secret: 'x',
    refresh_token: 'r',
    access_token: 'a',
    token: 'reset-token',
    key: key.key,
    sdmMetaReadKey: '00112233445566778899AABBCCDDEEFF',
    sdmFileReadKey: '00112233445566778899AABBCCDDEEFF',
    card: { cardNumber: '4242 4242 4242 4242', cvc: 123, expMonth: 12 },
    iban: 'DE89370400440532013000',
    recoveryCodes: ['abcd-efgh', 'ijkl-mnop'],
  }) as Record<string, unknown>;
  assert.deepEqual(redacted, {
    email: 'ann@example.com',
    password: REDACTED,
    newPassword: REDACTED,
    clientSecret: REDACTED,
    client_secret: REDACTED,
    refresh_token: REDACTED,
    access_token: REDACTED,
    token: REDACTED,
    key: REDACTED,
    sdmMetaReadKey: REDACTED,
    sdmFileReadKey: REDACTED,
    card: { cardNumber: REDACTED, cvc: REDACTED, expMonth: 12 },
    iban: REDACTED,
    recoveryCodes: [REDACTED, REDACTED],
  });
});

test('what only looks like a credential’s name stays: token ids, public keys, key descriptions, rotations', () => {
  const value = {
    tokenId: '77463582745623847562384756238475623874562387456',
    apiKey: { id: 'k1', name: 'CI', prefix: 'sk_test_AbCdEfGh' },
    publicKey: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
    secretRotation: { previousSecretExpiresAt: '2026-11-28T00:00:00.000Z' },
    idempotencyKey: undefined,
    gtin: '09506000134352',
    ean: '4006381333931',
    passwordSet: true,
  };
  assert.deepEqual(redactJson(value), value);
});

test('credentials by shape, under any name: API keys keep their public prefix, secrets, JWTs, bearer, cards', () => {
  const text = redactText(
    `key ${key.key}; webhook ${secret}; jwt ${jwt}; header Bearer abc.def; card 4242-4242-4242-4242; order 4242424242424241`,
  );
  assert.ok(!text.includes(key.key) && !text.includes(secret) && !text.includes(jwt), text);
  assert.ok(text.includes(`${key.prefix}…${REDACTED}`), text);
  assert.ok(text.includes(`whsec_${REDACTED}`), text);
  assert.ok(text.includes('Bearer [redacted]'), text);
  assert.ok(text.includes('[redacted] (card number)'), text);
  // Not a valid card number (Luhn): an order number stays.
  assert.ok(text.includes('order 4242424242424241'), text);
  const nested = JSON.stringify(redactJson({ note: [`forwarded ${secret}`], deep: { a: { b: key.key } } }));
  assert.ok(!nested.includes(secret) && !nested.includes(key.key), nested);
});

test('headers: Authorization keeps the scheme and an API key’s prefix; cookies go', () => {
  assert.deepEqual(
    redactHeaders({
      authorization: `Bearer ${key.key}`,
      cookie: 'dpp_console=s3cr3t',
      'content-type': 'application/json',
      'idempotency-key': 'order-1',
    }),
    {
      authorization: `Bearer ${key.prefix}…${REDACTED}`,
      cookie: REDACTED,
      'content-type': 'application/json',
      'idempotency-key': 'order-1',
    },
  );
  assert.deepEqual(redactHeaders({ authorization: `Bearer ${jwt}` }), {
    authorization: `Bearer ${REDACTED}`,
  });
  assert.deepEqual(redactHeaders({ authorization: 'Basic dXNlcjpwYXNz' }), {
    authorization: `Basic ${REDACTED}`,
  });
});

test('bodies: JSON and forms redacted and compact, binary described, a long body cut and marked', () => {
  const json = storedBody(
    Buffer.from(JSON.stringify({ password: 'p', name: 'n' })),
    'application/json',
    1000,
  );
  assert.deepEqual(json, { text: '{"password":"[redacted]","name":"n"}', bytes: 36, truncated: false });
  const form = storedBody(
    Buffer.from('grant_type=client_credentials&client_secret=abc'),
    'application/x-www-form-urlencoded',
    1000,
  );
  assert.equal(form.text, '{"grant_type":"client_credentials","client_secret":"[redacted]"}');
  assert.equal(
    storedBody(Buffer.from([1, 2, 3]), 'application/pdf', 1000).text,
    '[3 bytes of application/pdf]',
  );
  const long = storedBody(
    { items: Array.from({ length: 500 }, (_, i) => ({ i, name: 'Jacke ü' })) },
    '',
    1024,
  );
  assert.equal(long.truncated, true);
  assert.ok(Buffer.byteLength(long.text!) <= 1024);
  assert.ok(long.bytes > 1024);
  assert.equal(storedBody(undefined, '', 1000).text, null);
  // PostgreSQL text cannot hold NUL.
  assert.equal(storedBody('a\u0000b', 'text/plain', 1000).text, 'ab');
});
