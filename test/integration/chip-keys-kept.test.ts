import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { generateSun } from '../../src/standards/sun/index.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { chipKeySettings, sunTap } from '../support/fixtures/sun.ts';

/**
 * verify-chip keeps a company's SDM keys in memory (one round trip per tap): replacing the keys must take effect
 * on the very next tap, both ways — a tap signed with the replaced keys refused, one with the new keys accepted.
 */
describe('SUN keys kept in memory', () => {
  let api: TestApi;
  let acme: TestTenant;
  const uid = '04A1A1A1A1A101';
  const first = { metaReadKey: Buffer.alloc(16, 0x21), fileReadKey: Buffer.alloc(16, 0x22) };
  const second = { metaReadKey: Buffer.alloc(16, 0x31), fileReadKey: Buffer.alloc(16, 0x32) };
  const setKeys = async (keys: typeof first) => {
    const set = await api.call('PUT', '/v1/dpp/chip-keys', {
      key: acme.testKey,
      body: chipKeySettings(keys),
    });
    assert.equal(set.status, 200, set.text);
  };
  const verify = (tap: { piccData: string; cmac: string }) =>
    api.call('POST', '/v1/dpp/verify-chip', {
      key: acme.testKey,
      body: { chipUid: uid, piccData: tap.piccData, cmac: tap.cmac },
    });

  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('Acme');
    await api.call('POST', '/v1/dpp/enroll', { key: acme.testKey, body: { chipUid: uid } });
  });
  afterAll(() => api.close());

  test('a tap signed with replaced keys is refused on the next tap; one with the new keys is accepted', async () => {
    const factory = await verify(sunTap(uid, 1));
    assert.equal(factory.body.authentic, true, 'the factory keys before any are set');

    await setKeys(first);
    const oldFactory = await verify(sunTap(uid, 2));
    assert.equal(oldFactory.body.authentic, false);
    assert.notEqual(oldFactory.body.reason, 'replayed', 'refused as not genuine');
    assert.equal((await verify(generateSun({ uid, counter: 3, keys: first }))).body.authentic, true);

    await setKeys(second);
    const replaced = await verify(generateSun({ uid, counter: 4, keys: first }));
    assert.equal(replaced.body.authentic, false);
    assert.notEqual(replaced.body.reason, 'replayed', 'refused as not genuine');
    const fresh = await verify(generateSun({ uid, counter: 5, keys: second }));
    assert.deepEqual([fresh.body.authentic, fresh.body.counter], [true, 5]);

    const counter = await api.db.orm.em
      .getConnection()
      .execute('select sun_counter, verification_count from chips where chip_uid = ?', [uid]);
    assert.deepEqual(counter[0], { sun_counter: 5, verification_count: 3 }, 'no refused tap was recorded');
  });

  test('an unknown chip answers 404 whatever its reading, before the keys are read or used', async () => {
    const unknown = '04A1A1A1A1A1FF';
    for (const tap of [
      { piccData: sunTap(unknown, 1).piccData, cmac: sunTap(unknown, 1).cmac },
      { piccData: '00'.repeat(16), cmac: '00'.repeat(8) },
    ]) {
      const res = await api.call('POST', '/v1/dpp/verify-chip', {
        key: acme.testKey,
        body: { chipUid: unknown, ...tap },
      });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'chip_not_found');
    }
  });
});
