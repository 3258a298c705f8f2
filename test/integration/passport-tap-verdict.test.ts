import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { verifyPassportTap } from '../../src/passport/views/tap.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { SUN_KEYS_HEX, tapQuery } from '../support/fixtures/sun.ts';

describe('a consumer’s tap of a passport’s chip', () => {
  let api: TestApi;
  let brand: TestTenant;

  beforeAll(async () => {
    api = await startTestApi();
    brand = await api.createTenant('Keyless Brand');
  });
  afterAll(() => api.close());

  test('a live chip whose company set no SUN keys is unverifiable, not an error; with keys it verifies', async () => {
    const chipUid = '04C0FFEE00AA01';
    const enrolled = await api.call('POST', '/v1/dpp/enroll', {
      key: brand.liveKey,
      env: 'live',
      body: { chipUid },
    });
    assert.equal(enrolled.status, 201, enrolled.text);
    const passport = { companyId: brand.companyId, environment: 'live' as const, chipUid };
    const query = tapQuery(chipUid, 7);
    const em = () => api.db.orm.em.fork();
    const box = new SecretBox(undefined);
    assert.equal(await verifyPassportTap(em(), box, passport, query), 'unverifiable');

    const configured = await api.call('PUT', '/v1/dpp/chip-keys', {
      key: brand.liveKey,
      env: 'live',
      body: SUN_KEYS_HEX,
    });
    assert.equal(configured.status, 200, configured.text);
    assert.equal(await verifyPassportTap(em(), box, passport, query), 'authentic');
    assert.equal(await verifyPassportTap(em(), box, passport, query), 'replayed');
  });
});
