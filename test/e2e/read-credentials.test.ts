import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { CallResult, TestTenant } from '../support/api.ts';
import { BATTERY_DATA, contentPath } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * One credential rule on every read (issue 33 item 6, docs/disclosure.md "Who reads"): no credential → the
 * public answer; a Bearer credential that is not valid → 401 unauthorized, never quietly public; a genuine key
 * of the other environment (a test key with x-service-env: live) → 403 environment_mismatch, before the
 * passport is looked up (so the answer does not depend on the operation, nor tell which passports exist).
 */
describe('one credential rule on every read', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let tokenId: string;
  let dppId: string;
  let submodelId: string;
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, body });
    tokenId = await enrollAndMint(call, '04E1E2E3E4E501', FULL_PRODUCT);
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    assert.equal(view.status, 200, view.text);
    dppId = view.body.dppHeader.digitalProductPassportId;
    const written = await call('PUT', contentPath(dppId), BATTERY_DATA);
    assert.equal(written.status, 201, written.text);
    const submodels = await stack.api.call('GET', '/test/api/v3.0/submodels', { env: null });
    assert.equal(submodels.status, 200, submodels.text);
    submodelId = submodels.body.result[0].id;
  }, 600_000);
  afterAll(() => stack?.close());

  /**
   * Every read operation, by its path below the environment's root (`/test` for test passports), and the body
   * of the POST reads.
   */
  const reads = (): [string, string, unknown?][] => {
    const link = `/01/${GTIN}/21/${tokenId}`;
    const dpp = `/v1/dpps/${encodeURIComponent(dppId)}`;
    const shell = b64(`${stack.api.config.publicBaseUrl}/aas/test/${tokenId}`);
    const element = encodeURIComponent("$['digitalProductPassportId']");
    const productIds = { productIds: [`${stack.api.config.publicBaseUrl}/test${link}`] };
    return [
      ...['public', 'vc', 'aas', 'linkset', 'untp', 'vc-jwt'].map((format): [string, string] => [
        `resolver format=${format}`,
        `${link}?format=${format}`,
      ]),
      ['resolver linkType=linkset', `${link}?linkType=linkset`],
      [
        'resolver with batch',
        `/01/${GTIN}/10/${encodeURIComponent(FULL_PRODUCT.batch_number)}/21/${tokenId}?format=public`,
      ],
      ['content JSON', contentPath(dppId)],
      ['content AAS', `${contentPath(dppId)}?format=aas`],
      ['EN 18222 readDPPById', dpp],
      [
        'EN 18222 readDPPByProductId',
        `/v1/dppsByProductId/${encodeURIComponent(`${stack.api.config.publicBaseUrl}/test${link}`)}`,
      ],
      ['EN 18222 versions', `${dpp}/versions`],
      ['EN 18222 version 1', `${dpp}/versions/1`],
      [
        'EN 18222 by date',
        `/v1/dppsByIdAndDate/${encodeURIComponent(dppId)}?date=${encodeURIComponent(new Date().toISOString())}`,
      ],
      ['EN 18222 element', `${dpp}/elements/${element}`],
      ['AAS shells', '/api/v3.0/shells'],
      ['AAS shell', `/api/v3.0/shells/${shell}`],
      ['AAS submodel-refs', `/api/v3.0/shells/${shell}/submodel-refs`],
      ['AAS submodels', '/api/v3.0/submodels'],
      ['AAS submodel', `/api/v3.0/submodels/${b64(submodelId)}`],
      ['EN 18222 readDPPIdsByProductIds', '/v1/dppIdsByProductIds', productIds],
      ['readDPPIdsByProductIds (BaSyx path)', '/v1/dppsByProductIds', productIds],
      ['AAS serialization', '/api/v3.0/serialization'],
      ['AAS description', '/api/v3.0/description'],
    ];
  };

  const ask = (path: string, options: { key?: string; env?: string }, body?: unknown) =>
    stack.api.call(body === undefined ? 'GET' : 'POST', path, {
      env: options.env ?? null,
      key: options.key ?? null,
      headers: { accept: 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
  /** The error code of a problem document, or of an AAS Result (the AAS API's errors). */
  const codeOf = (answer: CallResult): string | undefined =>
    answer.body?.code ?? answer.body?.messages?.[0]?.code;

  /** Each read asked as told; answers the rows whose status or code differ from the expected ones. */
  const misfits = async (
    request: (path: string) => { path: string; key?: string; env?: string },
    expected: { status: number; code?: string },
  ) => {
    const wrong: string[] = [];
    for (const [name, path, body] of reads()) {
      const asked = request(path);
      const answer = await ask(asked.path, asked, body);
      // The AAS API answers an AAS Result, whose code is the status (the text tells the problem's).
      const want =
        expected.code === undefined || !path.startsWith('/api/v3.0')
          ? expected.code
          : String(expected.status);
      const code = want === undefined ? undefined : codeOf(answer);
      if (answer.status !== expected.status || code !== want) {
        wrong.push(`${name}: ${answer.status} ${codeOf(answer) ?? ''}`);
      } else if (expected.status === 401) {
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/, name);
      }
    }
    return wrong;
  };

  test('no credential: the public answer', async () => {
    assert.deepEqual(await misfits((path) => ({ path: `/test${path}` }), { status: 200 }), []);
  });

  test('a Bearer key that is not valid: 401 unauthorized on every read', async () => {
    const forged = `${tenant.testKey.slice(0, -4)}${tenant.testKey.endsWith('zzzz') ? 'yyyy' : 'zzzz'}`;
    for (const key of [
      'sk_test_not_a_key_at_all',
      forged,
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
    ]) {
      const wrong = await misfits((path) => ({ path: `/test${path}`, key }), {
        status: 401,
        code: 'unauthorized',
      });
      assert.deepEqual(wrong, [], key);
    }
  });

  test('a revoked key: 401 unauthorized on every read', async () => {
    const created = await stack.api.call('POST', '/v1/auth/api-keys', {
      key: tenant.testKey,
      body: { name: 'soon revoked' },
    });
    assert.equal(created.status, 201, created.text);
    const revoked = await stack.api.call('DELETE', `/v1/auth/api-keys/${created.body.apiKey.id}`, {
      key: tenant.testKey,
    });
    assert.ok(revoked.status < 300, revoked.text);
    const key: string = created.body.key;
    const wrong = await misfits((path) => ({ path: `/test${path}`, key }), {
      status: 401,
      code: 'unauthorized',
    });
    assert.deepEqual(wrong, []);
  });

  test('a test key with x-service-env: live: 403 environment_mismatch on every read', async () => {
    const wrong = await misfits((path) => ({ path, key: tenant.testKey, env: 'live' }), {
      status: 403,
      code: 'environment_mismatch',
    });
    assert.deepEqual(wrong, []);
  });
});
