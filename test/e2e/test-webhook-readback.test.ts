import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { CallOptions, TestTenant } from '../support/api.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { type Receiver, startReceiver, waitUntil } from '../webhooks/support.ts';

/**
 * Issue 27.1: where test webhooks may target private addresses (development defaults), a test key must not
 * turn the deliveries API into a reader of internal services. A "metadata service" on 127.0.0.1 answers a
 * long document; the deliveries API shows its status and a short printable excerpt, never the document.
 */
describe('test webhooks to a private address: the deliveries API shows only a short excerpt', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let internal: Receiver;
  const secretDocument = [
    '{"Code":"Success","Type":"AWS-HMAC",',
    `"AccessKeyId":"ASIA${'X'.repeat(16)}",\r\n\t"SecretAccessKey":"${'s3cr3t/'.repeat(40)}",`,
    `"Token":"${'T'.repeat(3000)}"}\u0000\u0007`,
  ].join('\n');
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, {
      key: tenant.testKey,
      ...(body === undefined ? {} : { body }),
    } satisfies CallOptions);

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Curious Co');
    internal = await startReceiver(() => ({ status: 200, body: secretDocument }));
  });
  afterAll(async () => {
    await stack.close();
    await internal.close();
  });

  test('status and at most 200 printable characters of the answer, nothing more', async () => {
    const created = await call('POST', '/v1/webhooks/endpoints', {
      url: internal.url.replace('/hooks', '/latest/meta-data/iam/security-credentials/role'),
    });
    assert.equal(created.status, 201, 'development defaults: the test environment accepts a local receiver');
    const sent = await call('POST', `/v1/webhooks/endpoints/${created.body.endpoint.id}/test`);
    assert.equal(sent.status, 202, sent.text);
    const path = `/v1/webhooks/events/${sent.body.eventId}/deliveries`;
    await waitUntil(
      async () => (await call('GET', path)).body?.deliveries?.[0]?.attempts?.length === 1,
      30_000,
      'the test delivery attempt',
    );
    const listed = await call('GET', path);
    const [attempt] = listed.body.deliveries[0].attempts;
    assert.equal(attempt.statusCode, 200);
    const excerpt: string = attempt.responseSnippet;
    assert.ok(excerpt.length <= 200, `${excerpt.length} characters`);
    assert.ok(excerpt.startsWith('{"Code":"Success"'), excerpt);
    assert.doesNotMatch(excerpt, /\p{Cc}/u, 'printable characters only');
    assert.ok(!listed.text.includes('T'.repeat(100)), 'the document is not readable through the API');
  });
});
