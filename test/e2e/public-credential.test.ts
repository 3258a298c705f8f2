import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import {
  localDocumentLoader,
  revocationBit,
  verifyWithDigitalBazaar,
} from '../support/credential-verifier.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, FULL_PRODUCT, GTIN, RECYCLING_SITE } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { publicCall, SPEC, sorted } from './fixtures/public-passport.ts';

// biome-ignore lint/suspicious/noExplicitAny: credentials as served
type Json = any;

describe('format=vc: a W3C VC 2.0 passport credential, verified independently, revocable', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let other: TestTenant;
  let tokenId: string;
  let plainToken: string;
  let loader: Awaited<ReturnType<typeof localDocumentLoader>>;
  let get: ReturnType<typeof publicCall>;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const credentialOf = async (token: string) => {
    const answer = await get(`/01/${GTIN}/21/${token}?format=vc`);
    assert.equal(answer.status, 200, answer.text);
    return { text: answer.text, vc: answer.body as Json };
  };
  const logAnchored = async (token: string, action: string) => {
    const logged = await call('POST', '/v1/iaas/log-event', {
      tokenId: token,
      action,
      locationName: 'Port of Hamburg',
      latitude: 53.546,
      longitude: 9.9661,
      metadata: {},
    });
    assert.equal(logged.status, 201, logged.text);
    await stack.temporal.client.workflow.getHandle(`anchor-event:test:${logged.body.eventId}`).result();
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    other = await stack.api.createTenant('Other Brand');
    get = publicCall(stack.api);
    tokenId = await enrollAndMint(call, '04C1B2C3D4E501', FULL_PRODUCT);
    plainToken = await enrollAndMint(call, '04C1B2C3D4E502');
    await logAnchored(tokenId, 'EXPORT_CLEARED');
    loader = await localDocumentLoader({
      baseUrl: stack.api.baseUrl,
      publicBaseUrl: stack.api.config.publicBaseUrl,
    });
  });
  afterAll(() => stack.close());

  test('exactly the spec’s members, every credentialSubject member with data', async () => {
    const { vc } = await credentialOf(tokenId);
    const base = stack.api.config.publicBaseUrl;
    const did = `did:web:${new URL(base).hostname}%3A${new URL(base).port}:test`;
    assert.deepEqual(sorted(vc), [...SPEC.vc].sort());
    assert.deepEqual(vc['@context'], ['https://www.w3.org/ns/credentials/v2', `${base}/contexts/dpp/v1`]);
    assert.match(vc.id, /^urn:uuid:[0-9a-f-]{36}$/);
    assert.deepEqual(vc.type, ['VerifiableCredential', 'DigitalProductPassport']);
    assert.equal(vc.issuer, did);
    assert.match(vc.validFrom, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(sorted(vc.credentialStatus), [...SPEC.credentialStatus].sort());
    assert.equal(vc.credentialStatus.type, 'BitstringStatusListEntry');
    assert.equal(vc.credentialStatus.statusPurpose, 'revocation');
    assert.match(vc.credentialStatus.statusListIndex, /^\d+$/);
    assert.equal(vc.credentialStatus.statusListCredential, `${base}/credentials/status/test/1`);
    assert.deepEqual(sorted(vc.proof), [...SPEC.proof].sort());
    assert.equal(vc.proof.type, 'DataIntegrityProof');
    assert.equal(vc.proof.cryptosuite, 'eddsa-rdfc-2022');
    assert.equal(vc.proof.proofPurpose, 'assertionMethod');
    assert.ok(vc.proof.verificationMethod.startsWith(`${did}#z6Mk`));

    const subject = vc.credentialSubject;
    const link = `${base}/test/01/${GTIN}/21/${tokenId}`;
    assert.deepEqual(sorted(subject), [...SPEC.credentialSubject].sort());
    assert.equal(subject.id, link);
    assert.equal(subject.type, 'Product');
    assert.equal(subject['dpp:upi'], link);
    assert.equal(subject['dpp:modelIdentifier'], GTIN);
    assert.equal(subject['dpp:instanceIdentifier'], tokenId);
    assert.equal(subject['schema:name'], 'Trail Jacket');
    assert.equal(subject['dpp:hsCode'], '620293');
    assert.equal(subject['dpp:originCountry'], 'PT');
    assert.equal(subject['dpp:batchNumber'], 'LOT-7/B');
    assert.deepEqual(subject['dpp:materialComposition'], [
      { type: 'MaterialComponent', 'schema:name': 'Cotton', 'dpp:percentage': 80 },
      { type: 'MaterialComponent', 'schema:name': 'Polyester', 'dpp:percentage': 20 },
    ]);
    assert.deepEqual(subject['idpp:hardware'], {
      chipType: 'NTAG 424 DNA',
      status: 'AUTHENTIC',
      verificationCount: 1,
    });
    assert.deepEqual(subject['dpp:conformity'], {
      type: 'Conformity',
      'dpp:complianceStatus': 'DECLARED',
      'dpp:declarationOfConformity': CONFORMITY_URL,
    });
    assert.deepEqual(subject['dpp:economicOperator'], {
      type: 'EconomicOperator',
      'schema:name': 'Acme Apparel GmbH',
      'schema:address': 'Hafenstraße 1, 20457 Hamburg, DE',
      'idpp:gln': '4012345000009',
    });
    assert.deepEqual(subject['dpp:emissionsScorecard'], {
      type: 'EmissionsScorecard',
      'dpp:carbonFootprint': {
        type: 'Measurement',
        value: 12.5,
        unit: 'KGM',
        metricName: 'Product carbon footprint (kg CO2e per unit)',
      },
    });
    assert.deepEqual(subject['dpp:circularityScorecard'], {
      type: 'CircularityScorecard',
      'dpp:recycledContent': { type: 'Measurement', value: 30, unit: 'P1' },
      'dpp:repairabilityScore': { type: 'Measurement', value: 7.5, unit: 'SCORE' },
      'dpp:expectedLifeSpan': { type: 'Measurement', value: 8, unit: 'ANN' },
    });

    // Provenance: the on-chain events, each with its actor's DID and transaction.
    const custody = (await call('GET', `/v1/iaas/custody/${tokenId}`)).body.events;
    assert.deepEqual(
      subject.provenance.map((p: Json) => [p.action, p.tx]),
      custody.map((e: Json) => [e.action, e.transactionHash]),
    );
    const [mint, cleared] = subject.provenance;
    // The spec's members plus `id`, the event's IRI (what keeps the credential cheap to canonicalise).
    assert.deepEqual(sorted(cleared), [...SPEC.provenance, 'id'].sort());
    assert.equal(cleared.id, `${link}#event-${custody[1].id}`);
    assert.equal(cleared.location, 'Port of Hamburg');
    assert.equal(cleared.latitude, 53.546);
    assert.equal(cleared.longitude, 9.9661);
    for (const entry of subject.provenance) {
      assert.match(entry.actor, /^did:pkh:eip155:31337:0x[0-9a-fA-F]{40}$/);
      assert.match(entry.tx, /^0x[0-9a-f]{64}$/);
      assert.match(entry.timestamp, /Z$/);
    }
    assert.equal(mint.actor, `did:pkh:eip155:31337:${custody[0].actor}`, 'the minter’s account');
  });

  test('members without data are left out, not invented', async () => {
    const subject = (await credentialOf(plainToken)).vc.credentialSubject;
    for (const absent of [
      'dpp:hsCode',
      'dpp:originCountry',
      'dpp:materialComposition',
      'dpp:batchNumber',
      'dpp:emissionsScorecard',
      'dpp:circularityScorecard',
    ]) {
      assert.equal(absent in subject, false, absent);
    }
    assert.equal(subject['dpp:economicOperator']['schema:name'], 'Acme Apparel', 'the brand that minted it');
    assert.equal('schema:address' in subject['dpp:economicOperator'], false);
  });

  test('verifies with @digitalbazaar/vc (eddsa-rdfc-2022, local contexts, the issuer’s did:web); a change breaks it', async () => {
    const { vc } = await credentialOf(tokenId);
    const result = await verifyWithDigitalBazaar(vc, loader.documentLoader);
    assert.equal(result.verified, true, JSON.stringify(result.error ?? result.results, null, 1));
    assert.equal(await revocationBit(vc, loader.documentLoader), false);
    assert.ok(
      loader.fetched.some((url) => url.endsWith('/test/did.json')),
      'resolved through did:web',
    );

    const altered = structuredClone(vc);
    altered.credentialSubject['schema:name'] = 'Counterfeit Jacket';
    assert.equal((await verifyWithDigitalBazaar(altered, loader.documentLoader)).verified, false);
  });

  test('signed once per version: repeated requests get the same bytes; a new event makes a new version', async () => {
    const first = await credentialOf(tokenId);
    const second = await credentialOf(tokenId);
    assert.equal(second.text, first.text, 'served from the store, not signed again');
    const [stored] = await stack.api.db.orm.em
      .getConnection()
      .execute(
        'select count(*)::int as n from passport_credentials pc join passports p on p.id = pc.passport_id where p.token_id = ?',
        [tokenId],
      );
    assert.equal(stored?.n, 1);

    await logAnchored(tokenId, 'IMPORT_CLEARED');
    const third = await credentialOf(tokenId);
    assert.notEqual(third.vc.id, first.vc.id);
    assert.notEqual(third.vc.proof.proofValue, first.vc.proof.proofValue);
    assert.equal(third.vc.credentialSubject.provenance.at(-1).action, 'IMPORT_CLEARED');
    assert.equal(third.vc.credentialStatus.statusListIndex, first.vc.credentialStatus.statusListIndex);
    assert.equal((await verifyWithDigitalBazaar(third.vc, loader.documentLoader)).verified, true);

    // A genuine tap changes idpp:hardware.verificationCount: the next request gets a new version.
    const tapped = await get(`/01/${GTIN}/21/${tokenId}?${tapQuery('04C1B2C3D4E501', 2)}`);
    assert.equal(tapped.status, 307);
    const fourth = await credentialOf(tokenId);
    assert.equal(fourth.vc.credentialSubject['idpp:hardware'].verificationCount, 2);
    assert.notEqual(fourth.vc.proof.proofValue, third.vc.proof.proofValue);
    assert.equal((await credentialOf(tokenId)).text, fourth.text);
  });

  test('revocation by the owning company sets the bit a verifier reads from the signed status list', async () => {
    const { vc } = await credentialOf(tokenId);
    const { vc: bystander } = await credentialOf(plainToken);
    assert.equal(
      (await stack.api.call('POST', '/v1/dpp/revoke', { key: other.testKey, body: { tokenId, reason: 'x' } }))
        .status,
      404,
      'another company cannot revoke it',
    );
    const revoked = await call('POST', '/v1/dpp/revoke', { tokenId, reason: 'Withdrawn from sale' });
    assert.equal(revoked.status, 200, revoked.text);
    assert.deepEqual(
      { ...revoked.body, revokedAt: typeof revoked.body.revokedAt },
      {
        success: true,
        tokenId,
        revoked: true,
        revokedAt: 'string',
        reason: 'Withdrawn from sale',
        alreadyRevoked: false,
      },
    );
    const again = await call('POST', '/v1/dpp/revoke', { tokenId, reason: 'Another reason' });
    assert.equal(again.body.alreadyRevoked, true);
    assert.equal(again.body.reason, 'Withdrawn from sale');

    assert.equal(
      await revocationBit(vc, loader.documentLoader),
      true,
      'the credential a holder kept is revoked',
    );
    assert.equal(await revocationBit(bystander, loader.documentLoader), false, 'its neighbour is not');
    const result = await verifyWithDigitalBazaar(vc, loader.documentLoader);
    assert.equal((result.statusResult as Json).results[0].status, true);
    assert.equal((await get(`/01/${GTIN}/21/${tokenId}?format=public`)).body.status, 'REVOKED');

    const list = await get(`/credentials/status/test/1`);
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('cache-control'), 'no-cache');
    assert.deepEqual(list.body.type, ['VerifiableCredential', 'BitstringStatusListCredential']);
    assert.equal(list.body.credentialSubject.statusPurpose, 'revocation');
    assert.equal((await get('/credentials/status/test/99')).status, 404);
    assert.equal((await get('/credentials/status/staging/1')).status, 400);
  });

  test('recycling revokes the credential', async () => {
    const { vc } = await credentialOf(plainToken);
    const recycled = await call('POST', '/v1/iaas/log-recycle', { tokenId: plainToken, ...RECYCLING_SITE });
    assert.equal(recycled.status, 201, recycled.text);
    assert.equal(await revocationBit(vc, loader.documentLoader), true);
    assert.equal((await get(`/01/${GTIN}/21/${plainToken}?format=public`)).body.status, 'RECYCLED');
    const latest = (await credentialOf(plainToken)).vc;
    assert.equal(latest.credentialSubject.provenance.at(-1).action, 'RECYCLE_TRANSFER');
    assert.equal(await revocationBit(latest, loader.documentLoader), true);
  });

  test('did:web documents: test at /test/did.json, live at /.well-known/did.json, Multikeys for assertions', async () => {
    const { vc } = await credentialOf(tokenId);
    const test = (await get('/test/did.json')).body;
    assert.equal(test.id, vc.issuer);
    assert.ok(test.assertionMethod.includes(vc.proof.verificationMethod));
    const method = test.verificationMethod.find((m: Json) => m.id === vc.proof.verificationMethod);
    assert.equal(method.type, 'Multikey');
    assert.equal(method.controller, test.id);
    const live = (await stack.api.call('GET', '/.well-known/did.json', { env: null })).body;
    assert.equal(live.id, vc.issuer.replace(/:test$/, ''));
    assert.notEqual(live.verificationMethod[0].publicKeyMultibase, method.publicKeyMultibase);
    assert.deepEqual(
      (await get('/.well-known/did.json')).body,
      test,
      'x-service-env: test selects the test issuer',
    );
  });
});
