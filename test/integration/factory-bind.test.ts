import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { CONFORMITY_DOC } from '../support/fixtures/products.ts';

describe('factory binding and toolbox keys', () => {
  let api: TestApi;
  let acme: TestTenant;
  let globex: TestTenant;
  const call = (method: string, path: string, body?: unknown, tenant?: TestTenant) =>
    api.call(method, path, { key: (tenant ?? acme).testKey, ...(body === undefined ? {} : { body }) });
  const provision = async (tenant?: TestTenant): Promise<string> => {
    const res = await call(
      'POST',
      '/v1/erp/provision',
      { erp_metadata: { material_number: 'M', order_id: 'O' } },
      tenant,
    );
    assert.equal(res.status, 201);
    return res.body.service_internal_id;
  };
  const bindA = (id: string, chipUid: string, tenant?: TestTenant) =>
    call('POST', '/v1/factory/bind', { service_internal_id: id, hardware: { chip_uid: chipUid } }, tenant);

  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('Acme');
    globex = await api.createTenant('Globex');
  });
  afterAll(() => api.close());

  test('shape A activates the twin, enrolls the chip implicitly and queues asset.initialized', async () => {
    const id = await provision();
    const res = await bindA(id, '04:aa:bb:cc:dd:ee:01');
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body, {
      success: true,
      message: `Product ${id} is now ACTIVE.`,
      service_internal_id: id,
      chip_uid: '04AABBCCDDEE01',
    });
    const [twin] = await api.db.orm.em
      .getConnection()
      .execute(`select status, chip_uid, bound_at from asset_twins where service_internal_id = ?`, [id]);
    assert.equal(twin!.status, 'ACTIVE');
    assert.equal(twin!.chip_uid, '04AABBCCDDEE01');
    assert.ok(twin!.bound_at);
    // Inventory says what bind said: the chip is ACTIVE now, with the twin's material.
    const chips = await call('GET', '/v1/dpp/inventory');
    assert.deepEqual(
      chips.body.inventory.find((c: { chipUid: string }) => c.chipUid === '04AABBCCDDEE01'),
      { tokenId: null, chipUid: '04AABBCCDDEE01', productId: 'M', material: 'M', status: 'ACTIVE' },
    );
    const events = await api.db.orm.em
      .getConnection()
      .execute(
        `select data from outbox_events where event_type = 'asset.initialized' and data->>'chipUid' = '04AABBCCDDEE01'`,
      );
    assert.equal(events.length, 1);
  });

  test('shape A with an already enrolled chip does not enroll it again', async () => {
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: '04AABBCCDDEE02' })).status, 201);
    const res = await bindA(await provision(), '04AABBCCDDEE02');
    assert.equal(res.status, 201);
    const events = await api.db.orm.em
      .getConnection()
      .execute(`select 1 from outbox_events where data->>'chipUid' = '04AABBCCDDEE02'`);
    assert.equal(events.length, 1);
  });

  test('shape A errors: unknown twin, twin bound, chip bound, chip elsewhere, bad UID, other tenant', async () => {
    const unknown = await bindA('svc_aaaaaaaaaaaaaaaaaaaa', '04AABBCCDDEE03');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'twin_not_found');

    const id = await provision();
    assert.equal((await bindA(id, '04AABBCCDDEE03')).status, 201);
    const twice = await bindA(id, '04AABBCCDDEE03');
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'twin_already_bound');
    const other = await bindA(id, '04AABBCCDDEE04');
    assert.equal(other.body.code, 'twin_already_bound');

    const chipTaken = await bindA(await provision(), '04AABBCCDDEE03');
    assert.equal(chipTaken.status, 409);
    assert.equal(chipTaken.body.code, 'chip_already_bound');

    const globexTwin = await provision(globex);
    const elsewhere = await bindA(globexTwin, '04AABBCCDDEE03', globex);
    assert.equal(elsewhere.status, 409);
    assert.equal(elsewhere.body.code, 'chip_enrolled_elsewhere');
    assert.equal((await bindA(globexTwin, '04AABBCCDDEE05')).status, 404, 'twins are per tenant');

    const badUid = await bindA(await provision(), 'xyz');
    assert.equal(badUid.status, 400);
    assert.equal(badUid.body.code, 'invalid_chip_uid');
    const missing = await call('POST', '/v1/factory/bind', { service_internal_id: id });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errors[0].path, 'body.hardware');
  });

  test('shape A concurrent binds of one chip to two twins: exactly one wins', async () => {
    const [a, b] = [await provision(), await provision()];
    const results = await Promise.all([bindA(a, '04AABBCCDDEE06'), bindA(b, '04AABBCCDDEE06')]);
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409]);
  });

  test('shape A with an Idempotency-Key replays the bind', async () => {
    const id = await provision();
    const body = { service_internal_id: id, hardware: { chip_uid: '04AABBCCDDEE07' } };
    const headers = { 'idempotency-key': `bind-${id}` };
    const first = await api.call('POST', '/v1/factory/bind', { key: acme.testKey, body, headers });
    const again = await api.call('POST', '/v1/factory/bind', { key: acme.testKey, body, headers });
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
  });

  test('toolbox keys: register PEM and JWK (Ed25519, P-256), list, revoke; other key types refused', async () => {
    const ed = generateKeyPairSync('ed25519');
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = await call('POST', '/v1/factory/toolbox-keys', {
      name: 'Line 1',
      publicKey: ed.publicKey.export({ type: 'spki', format: 'pem' }),
    });
    assert.equal(pem.status, 201, pem.text);
    assert.equal(pem.body.data.algorithm, 'Ed25519');
    const jwk = await call('POST', '/v1/factory/toolbox-keys', {
      name: 'Line 2',
      publicKey: p256.publicKey.export({ format: 'jwk' }),
    });
    assert.equal(jwk.status, 201, jwk.text);
    assert.equal(jwk.body.data.algorithm, 'P-256');
    const refused = await call('POST', '/v1/factory/toolbox-keys', {
      name: 'RSA',
      publicKey: rsa.publicKey.export({ type: 'spki', format: 'pem' }),
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'unsupported_key_type');
    const garbage = await call('POST', '/v1/factory/toolbox-keys', { name: 'x', publicKey: 'not a key' });
    assert.equal(garbage.body.code, 'invalid_public_key');

    const listed = await call('GET', '/v1/factory/toolbox-keys');
    assert.deepEqual(
      listed.body.data.map((k: { name: string }) => k.name),
      ['Line 1', 'Line 2'],
    );
    assert.equal((await call('GET', '/v1/factory/toolbox-keys', undefined, globex)).body.data.length, 0);
    assert.equal((await call('DELETE', `/v1/factory/toolbox-keys/${jwk.body.data.id}`)).status, 200);
    assert.equal((await call('DELETE', `/v1/factory/toolbox-keys/${jwk.body.data.id}`)).status, 200);
    assert.equal(
      (await call('DELETE', `/v1/factory/toolbox-keys/${jwk.body.data.id}`, undefined, globex)).status,
      404,
    );
    assert.equal((await call('GET', '/v1/factory/toolbox-keys')).body.data.length, 1);
    await call('DELETE', `/v1/factory/toolbox-keys/${pem.body.data.id}`);
  });

  test('shape B refuses bad signatures before binding anything and binds with a valid one', async () => {
    // Its mint takes the company's default declaration of conformity (without one: 400, tested end to end).
    await call('PATCH', '/v1/company/settings', { defaultConformityUrl: CONFORMITY_DOC });
    const ed = generateKeyPairSync('ed25519');
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const stranger = generateKeyPairSync('ed25519');
    const edKey = await call('POST', '/v1/factory/toolbox-keys', {
      name: 'Ed',
      publicKey: ed.publicKey.export({ type: 'spki', format: 'pem' }),
    });
    await call('POST', '/v1/factory/toolbox-keys', {
      name: 'P',
      publicKey: p256.publicKey.export({ type: 'spki', format: 'pem' }),
    });
    const id = await provision();
    const uid = '04AABBCCDDEE10';
    const message = Buffer.from(`${id}:${uid}`);
    const bindB = (signature: string, chipUid = uid) =>
      call('POST', '/v1/factory/bind', { internalId: id, chipUid, signature });

    const forged = await bindB(sign(null, message, stranger.privateKey).toString('hex'));
    assert.equal(forged.status, 422);
    assert.equal(forged.body.code, 'invalid_toolbox_signature');
    const otherChip = await bindB(
      sign(null, Buffer.from(`${id}:04AABBCCDDEE11`), ed.privateKey).toString('hex'),
    );
    assert.equal(otherChip.body.code, 'invalid_toolbox_signature');

    const edSig = sign(null, message, ed.privateKey).toString('hex');
    const derSig = sign('sha256', message, p256.privateKey).toString('hex');
    const rawSig = sign('sha256', message, { key: p256.privateKey, dsaEncoding: 'ieee-p1363' }).toString(
      'hex',
    );
    for (const signature of [edSig, derSig, rawSig]) {
      const accepted = await bindB(signature, '04:aa:bb:cc:dd:ee:10');
      // A valid signature binds the twin; this API runs without a workflow service, so the mint cannot start.
      assert.equal(accepted.status, 503, accepted.text);
      assert.equal(accepted.body.code, 'workflows_unavailable');
    }
    const [twin] = await api.db.orm.em
      .getConnection()
      .execute(`select status, chip_uid from asset_twins where service_internal_id = ?`, [id]);
    assert.equal(twin!.status, 'ACTIVE', 'the signed bind bound the twin');

    await call('DELETE', `/v1/factory/toolbox-keys/${edKey.body.data.id}`);
    assert.equal((await bindB(edSig)).body.code, 'invalid_toolbox_signature', 'revoked keys do not sign');
    const unknownTwin = await call('POST', '/v1/factory/bind', {
      internalId: 'svc_bbbbbbbbbbbbbbbbbbbb',
      chipUid: uid,
      signature: edSig,
    });
    assert.equal(unknownTwin.status, 404);
    const notHex = await bindB('zz');
    assert.equal(notHex.status, 400);
    assert.equal(notHex.body.errors[0].path, 'body.signature');
  });
});
