import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createCompanyWithKey } from '../../src/accounts/companies/companies.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { type ApiProcess, startApiProcess } from '../support/api-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { LIVE_TEST_SECRETS } from '../support/secrets.ts';

/**
 * Issue 27.1 through HTTP: a test key may point a webhook at a local receiver only under the development
 * defaults (npm start, the tests); the production entry point (api/main.ts) refuses it with nothing set, and
 * so do development defaults once the live environment is configured.
 */
describe('private webhook targets in the test environment are a development convenience', () => {
  let db: TestDatabase;
  let production: ApiProcess;
  let developmentWithLive: TestApi;
  const local = 'http://127.0.0.1:4010/hook';

  beforeAll(async () => {
    db = await createTestDatabase();
    production = await startApiProcess({ DATABASE_URL: db.url });
    developmentWithLive = await startTestApi({
      ...LIVE_TEST_SECRETS,
      CHAIN_RPC_URL_LIVE: 'https://rpc.example.com',
    });
  });
  afterAll(async () => {
    await production?.stop();
    await db?.drop();
    await developmentWithLive?.close();
  });

  test('the production entry point with nothing configured: 422 webhook_url_not_allowed', async () => {
    const { apiKey } = await createCompanyWithKey(db.orm.em.fork(), { name: 'Prod Co', environment: 'test' });
    const answer = await fetch(`${production.url}/v1/webhooks/endpoints`, {
      method: 'POST',
      headers: {
        'x-service-env': 'test',
        authorization: `Bearer ${apiKey.key}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ url: local }),
    });
    const body = (await answer.json()) as { code: string };
    assert.equal(answer.status, 422, JSON.stringify(body));
    assert.equal(body.code, 'webhook_url_not_allowed');
  });

  test('development defaults with the live environment configured: refused too', async () => {
    const tenant = await developmentWithLive.createTenant('Dev Co');
    const refused = await developmentWithLive.call('POST', '/v1/webhooks/endpoints', {
      key: tenant.testKey,
      body: { url: local },
    });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'webhook_url_not_allowed');
  });
});
