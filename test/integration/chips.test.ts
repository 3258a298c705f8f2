import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { verifyTap } from '../../src/chips/verify-tap.ts';
import { scopedEntityManager, type TenantScope } from '../../src/platform/db/tenant-scope.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { chipKey, generateSun } from '../../src/standards/sun/index.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { AN12196_CHIP_UID, chipKeySettings, sunTap } from '../support/fixtures/sun.ts';

describe('chip enrollment, SUN verification and inventory', () => {
  let api: TestApi;
  let acme: TestTenant;
  let globex: TestTenant;

  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('Acme');
    globex = await api.createTenant('Globex');
  });
  afterAll(() => api.close());

  test('enroll normalises the UID, answers the spec shape and queues asset.initialized once', async () => {
    const res = await api.call('POST', '/v1/dpp/enroll', {
      key: acme.testKey,
      body: { chipUid: '04:de:5f:1e:ac:c0:40', productId: 'SKU-1' },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.success, true);
    assert.equal(typeof res.body.message, 'string');
    assert.equal(typeof res.body.data.id, 'number');
    assert.equal(res.body.data.status, 'INACTIVE');
    assert.equal(res.body.data.chipUid, AN12196_CHIP_UID);

    const again = await api.call('POST', '/v1/dpp/enroll', {
      key: acme.testKey,
      body: { chipUid: AN12196_CHIP_UID },
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.data.id, res.body.data.id);

    const events = await api.db.orm.em
      .getConnection()
      .execute(`select event_type, data from outbox_events where event_type = 'asset.initialized'`);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.chipUid, AN12196_CHIP_UID);
    assert.equal(events[0]!.data.status, 'INACTIVE');
    assert.ok(!Number.isNaN(Date.parse(events[0]!.data.enrolledAt)));

    const elsewhere = await api.call('POST', '/v1/dpp/enroll', {
      key: globex.testKey,
      body: { chipUid: AN12196_CHIP_UID },
    });
    assert.equal(elsewhere.status, 409);
    assert.equal(elsewhere.body.code, 'chip_enrolled_elsewhere');
    const live = await api.call('POST', '/v1/dpp/enroll', {
      env: 'live',
      key: globex.liveKey,
      body: { chipUid: AN12196_CHIP_UID },
    });
    assert.equal(live.status, 201, 'environments are separate inventories');
  });

  test('bad UIDs are refused with a clear 400', async () => {
    for (const chipUid of ['04DE5F', 'zz:de:5f:1e:ac:c0:40', '04DE5F1EACC04012']) {
      const res = await api.call('POST', '/v1/dpp/enroll', { key: acme.testKey, body: { chipUid } });
      assert.equal(res.status, 400, chipUid);
      assert.equal(res.body.code, 'invalid_chip_uid');
    }
  });

  test('AN12196 example verifies with the factory keys in test; a replay and a tampered CMAC do not', async () => {
    await api.call('POST', '/v1/dpp/enroll', { key: acme.testKey, body: { chipUid: AN12196_CHIP_UID } });
    const an12196 = {
      chipUid: AN12196_CHIP_UID,
      piccData: 'EF963FF7828658A599F3041510671E88',
      cmac: '94EED9EE65337086',
    };
    const first = await api.call('POST', '/v1/dpp/verify-chip', { key: acme.testKey, body: an12196 });
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { success: true, authentic: true, counter: 61, chipType: 'NTAG 424 DNA' });

    const replay = await api.call('POST', '/v1/dpp/verify-chip', { key: acme.testKey, body: an12196 });
    assert.equal(replay.body.authentic, false);
    assert.equal(replay.body.reason, 'replayed');

    const next = sunTap(AN12196_CHIP_UID, 62);
    const tampered = {
      ...an12196,
      piccData: next.piccData,
      cmac: `${next.cmac.slice(0, 15)}${next.cmac.endsWith('0') ? '1' : '0'}`,
    };
    const bad = await api.call('POST', '/v1/dpp/verify-chip', { key: acme.testKey, body: tampered });
    assert.equal(bad.body.authentic, false);
    assert.equal(bad.body.reason, 'bad_cmac');

    const fresh = await api.call('POST', '/v1/dpp/verify-chip', {
      key: acme.testKey,
      body: { chipUid: AN12196_CHIP_UID, piccData: next.piccData, cmac: next.cmac },
    });
    assert.equal(fresh.body.authentic, true, 'a tampered attempt does not burn the counter');
    assert.equal(fresh.body.counter, 62);
  });

  test('concurrent requests with the same counter: exactly one is authentic', async () => {
    const tap = sunTap(AN12196_CHIP_UID, 500);
    const body = { chipUid: AN12196_CHIP_UID, piccData: tap.piccData, cmac: tap.cmac };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.call('POST', '/v1/dpp/verify-chip', { key: acme.testKey, body })),
    );
    assert.equal(results.filter((r) => r.body.authentic === true).length, 1);
    assert.ok(results.every((r) => r.status === 200));
  });

  test('a counter accepted under a reference is accepted again for that reference only, counted once', async () => {
    const uid = '04DE5F1EACC041';
    await api.call('POST', '/v1/dpp/enroll', { key: globex.testKey, body: { chipUid: uid } });
    const scope: TenantScope = { companyId: globex.companyId, environment: 'test' };
    const verify = (counter: number, reference: string) =>
      verifyTap(scopedEntityManager(api.db.orm.em, scope), new SecretBox(undefined), scope, {
        chipUid: uid,
        sun: sunTap(uid, counter),
        reference,
      });
    assert.equal((await verify(3, 'mint:test:a')).authentic, true);
    assert.equal((await verify(3, 'mint:test:a')).authentic, true, 'the same caller retrying');
    assert.deepEqual(await verify(3, 'mint:test:b'), {
      authentic: false,
      chipUid: uid,
      reason: 'replayed',
      message: 'SUN read counter 3 was already used; tap the chip again for a fresh signature.',
      counter: 3,
      chipType: 'NTAG 424 DNA',
    });
    assert.equal((await verify(2, 'mint:test:a')).authentic, false, 'an older counter');
    const [chip] = await api.db.orm.em
      .getConnection()
      .execute('select sun_counter, sun_counter_ref, verification_count from chips where chip_uid = ?', [
        uid,
      ]);
    assert.deepEqual(chip, { sun_counter: 3, sun_counter_ref: 'mint:test:a', verification_count: 1 });
  });

  test('malformed hex → 400, unknown chip → 404, other tenants cannot verify our chips', async () => {
    const malformed = await api.call('POST', '/v1/dpp/verify-chip', {
      key: acme.testKey,
      body: { chipUid: AN12196_CHIP_UID, piccData: 'XYZ', cmac: '94EED9EE65337086' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'validation_failed');
    const tap = sunTap('04AAAAAAAAAA01', 1);
    const unknown = await api.call('POST', '/v1/dpp/verify-chip', {
      key: acme.testKey,
      body: { chipUid: '04AAAAAAAAAA01', piccData: tap.piccData, cmac: tap.cmac },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'chip_not_found');
    const other = await api.call('POST', '/v1/dpp/verify-chip', {
      key: globex.testKey,
      body: { chipUid: AN12196_CHIP_UID, piccData: tap.piccData, cmac: tap.cmac },
    });
    assert.equal(other.status, 404);
  });

  test('configured keys replace the factory default; keys are never returned; live needs keys', async () => {
    const status = await api.call('GET', '/v1/dpp/chip-keys', { key: globex.testKey });
    assert.equal(status.body.source, 'factory_default');
    const liveStatus = await api.call('GET', '/v1/dpp/chip-keys', { env: 'live', key: globex.liveKey });
    assert.equal(liveStatus.body.source, 'missing');

    const own = { metaReadKey: Buffer.alloc(16, 7), fileReadKey: Buffer.alloc(16, 9) };
    const set = await api.call('PUT', '/v1/dpp/chip-keys', {
      key: globex.testKey,
      body: chipKeySettings(own),
    });
    assert.equal(set.status, 200);
    assert.equal(set.body.source, 'configured');
    assert.ok(!set.text.includes(own.metaReadKey.toString('hex')));
    const rows = await api.db.orm.em.getConnection().execute('select meta_read_key from chip_keys');
    assert.ok(!Buffer.from(rows[0]!.meta_read_key).includes(own.metaReadKey), 'stored encrypted');

    await api.call('POST', '/v1/dpp/enroll', { key: globex.testKey, body: { chipUid: '04BBBBBBBBBB02' } });
    const factoryTap = sunTap('04BBBBBBBBBB02', 1);
    const refused = await api.call('POST', '/v1/dpp/verify-chip', {
      key: globex.testKey,
      body: { chipUid: '04BBBBBBBBBB02', piccData: factoryTap.piccData, cmac: factoryTap.cmac },
    });
    assert.equal(refused.body.authentic, false);
    const ownTap = generateSun({ uid: '04BBBBBBBBBB02', counter: 2, keys: own });
    const accepted = await api.call('POST', '/v1/dpp/verify-chip', {
      key: globex.testKey,
      body: { chipUid: '04BBBBBBBBBB02', piccData: ownTap.piccData, cmac: ownTap.cmac },
    });
    assert.equal(accepted.body.authentic, true);

    await api.call('POST', '/v1/dpp/enroll', {
      env: 'live',
      key: globex.liveKey,
      body: { chipUid: '04CCCCCCCCCC03' },
    });
    const liveTap = sunTap('04CCCCCCCCCC03', 1);
    const noKeys = await api.call('POST', '/v1/dpp/verify-chip', {
      env: 'live',
      key: globex.liveKey,
      body: { chipUid: '04CCCCCCCCCC03', piccData: liveTap.piccData, cmac: liveTap.cmac },
    });
    assert.equal(noKeys.status, 409);
    assert.equal(noKeys.body.code, 'chip_keys_not_configured');
  });

  test('per-chip keys diversified from a master key (AN10922): each chip verifies with its own key', async () => {
    const initech = await api.createTenant('Initech');
    const call = (method: string, body?: unknown) =>
      api.call(method, '/v1/dpp/chip-keys', {
        key: initech.testKey,
        ...(body === undefined ? {} : { body }),
      });
    const master = Buffer.alloc(16, 0x5a);
    const meta = Buffer.alloc(16, 0x11);
    const set = await call('PUT', {
      sdmMetaReadKey: meta.toString('hex'),
      sdmFileReadKey: master.toString('hex'),
      fileReadKeyDiversification: { scheme: 'AN10922', systemIdentifier: '3042f5' },
    });
    assert.equal(set.status, 200, set.text);
    const expected = { scheme: 'AN10922', systemIdentifier: '3042F5' };
    assert.deepEqual(set.body.fileReadKeyDiversification, expected);
    assert.deepEqual((await call('GET')).body.fileReadKeyDiversification, expected);

    const uid = '04D1D1D1D1D101';
    await api.call('POST', '/v1/dpp/enroll', { key: initech.testKey, body: { chipUid: uid } });
    const verify = (tap: { piccData: string; cmac: string }) =>
      api.call('POST', '/v1/dpp/verify-chip', {
        key: initech.testKey,
        body: { chipUid: uid, piccData: tap.piccData, cmac: tap.cmac },
      });
    const ownKey = chipKey(master, Buffer.from(uid, 'hex'), Buffer.from('3042f5', 'hex'));
    const genuine = await verify(
      generateSun({ uid, counter: 1, keys: { metaReadKey: meta, fileReadKey: ownKey } }),
    );
    assert.equal(genuine.body.authentic, true, genuine.text);
    const masterTap = await verify(
      generateSun({ uid, counter: 2, keys: { metaReadKey: meta, fileReadKey: master } }),
    );
    assert.deepEqual([masterTap.body.authentic, masterTap.body.reason], [false, 'bad_cmac']);

    for (const bad of [
      { scheme: 'AN10922', systemIdentifier: 'zz' },
      { scheme: 'AN10922', systemIdentifier: 'ab'.repeat(25) },
      { scheme: 'AN12345' },
    ]) {
      const refused = await call('PUT', {
        sdmMetaReadKey: meta.toString('hex'),
        sdmFileReadKey: master.toString('hex'),
        fileReadKeyDiversification: bad,
      });
      assert.equal(refused.status, 400, JSON.stringify(bad));
    }
    await call('PUT', { sdmMetaReadKey: meta.toString('hex'), sdmFileReadKey: master.toString('hex') });
    assert.equal(
      (await call('GET')).body.fileReadKeyDiversification,
      null,
      'keys set again without it: none',
    );
  });

  test('a chip in LRP mode verifies too (24-byte PICCData); its counter is accepted once', async () => {
    // A chip capture in LRP mode with NXP's factory keys (nfc-developer/sdm-backend, test_sdm_lrp2).
    const lrp = {
      chipUid: '04940E2A2F7080',
      piccData: '1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F',
      cmac: '4231608BA7B02BA9',
    };
    const hooli = await api.createTenant('Hooli');
    await api.call('POST', '/v1/dpp/enroll', { key: hooli.testKey, body: { chipUid: lrp.chipUid } });
    const verify = (body: typeof lrp) =>
      api.call('POST', '/v1/dpp/verify-chip', { key: hooli.testKey, body });
    const first = await verify(lrp);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(
      [first.body.authentic, first.body.counter, first.body.chipType],
      [true, 3, 'NTAG 424 DNA'],
    );
    const replayed = await verify(lrp);
    assert.deepEqual([replayed.body.authentic, replayed.body.reason], [false, 'replayed']);
    const forged = await verify({ ...lrp, cmac: '4231608BA7B02BAA' });
    assert.deepEqual([forged.body.authentic, forged.body.reason], [false, 'bad_cmac']);
    const wrongLength = await verify({ ...lrp, piccData: lrp.piccData.slice(0, 40) });
    assert.equal(wrongLength.status, 400);
  });

  test('inventory lists all the company’s chips of the environment, or pages with limit', async () => {
    for (const uid of ['04000000000011', '04000000000012', '04000000000013']) {
      await api.call('POST', '/v1/dpp/enroll', {
        key: acme.testKey,
        body: { chipUid: uid, productId: `P-${uid}` },
      });
    }
    const first = await api.call('GET', '/v1/dpp/inventory?limit=2', { key: acme.testKey });
    assert.equal(first.status, 200);
    assert.equal(first.body.inventory.length, 2);
    assert.deepEqual(Object.keys(first.body.inventory[0]).sort(), [
      'chipUid',
      'material',
      'productId',
      'status',
      'tokenId',
    ]);
    assert.equal(first.body.inventory[0].tokenId, null);
    assert.equal(first.body.inventory[0].status, 'INACTIVE');
    const rest = await api.call('GET', `/v1/dpp/inventory?limit=100&after=${first.body.nextCursor}`, {
      key: acme.testKey,
    });
    const all = [...first.body.inventory, ...rest.body.inventory].map((i: { chipUid: string }) => i.chipUid);
    assert.deepEqual(all, [AN12196_CHIP_UID, '04000000000011', '04000000000012', '04000000000013']);
    assert.equal(rest.body.nextCursor, null);
    // The spec's call without parameters: every asset (here beyond the 100 a page used to hold).
    for (let n = 0; n < 120; n++) {
      const uid = `0410${String(n).padStart(10, '0')}`;
      await api.call('POST', '/v1/dpp/enroll', { key: acme.testKey, body: { chipUid: uid } });
    }
    const everything = await api.call('GET', '/v1/dpp/inventory', { key: acme.testKey });
    assert.equal(everything.body.inventory.length, 124);
    assert.equal(everything.body.nextCursor, null);
    const globexView = await api.call('GET', '/v1/dpp/inventory', { key: globex.testKey });
    assert.ok(!globexView.body.inventory.some((i: { chipUid: string }) => all.includes(i.chipUid)));
  });
});
