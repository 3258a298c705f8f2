import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compactVerify, importJWK } from 'jose';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { base58btcDecode } from '../../src/standards/credentials/multibase.ts';
import { runDppvalidator } from '../conformance/support/dppvalidator.ts';
import { checkGs1Linkset } from '../conformance/support/linkset-schema.ts';
import type { TestTenant } from '../support/api.ts';
import {
  localDocumentLoader,
  revocationBit,
  verifyWithDigitalBazaar,
} from '../support/credential-verifier.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { publicCall } from './fixtures/public-passport.ts';

// biome-ignore lint/suspicious/noExplicitAny: documents as served
type Json = any;

const UNTP_CONTEXT = 'https://vocabulary.uncefact.org/untp/0.7.0/context/';

describe('UNTP 0.7.0 credential (format=untp), its VC-JOSE form (application/vc+jwt) and the linkset', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let tokenId: string;
  let plainToken: string;
  let get: ReturnType<typeof publicCall>;
  let anchor: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const path = () => `/01/${GTIN}/21/${tokenId}`;
  const untp = async () => {
    const answer = await get(`${path()}?format=untp`);
    assert.equal(answer.status, 200, answer.text);
    return answer;
  };
  /** A verifier's loader: the W3C contexts from the verifier's package, the UNTP context as UNTP publishes it. */
  const loaderWithUntp = async () => {
    const { documentLoader, fetched } = await localDocumentLoader({
      baseUrl: stack.api.baseUrl,
      publicBaseUrl: stack.api.config.publicBaseUrl,
    });
    const untpContext = JSON.parse(
      readFileSync(
        new URL('../../src/standards/credentials/contexts/untp-0.7.0.jsonld', import.meta.url),
        'utf8',
      ),
    );
    // Our extension context, as the service publishes it (fetched over HTTP like the seed's context).
    const extensionUrl = `${stack.api.config.publicBaseUrl}/contexts/untp-dpp/v1`;
    const extension = await (await fetch(`${stack.api.baseUrl}/contexts/untp-dpp/v1`)).json();
    const known = new Map<string, unknown>([
      [UNTP_CONTEXT, untpContext],
      [extensionUrl, extension],
    ]);
    const loader = async (url: string) =>
      known.has(url) ? { contextUrl: null, documentUrl: url, document: known.get(url) } : documentLoader(url);
    return { documentLoader: loader, fetched };
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    get = publicCall(stack.api);
    tokenId = await enrollAndMint(call, '04C1B2C3D4E5A1', FULL_PRODUCT);
    plainToken = await enrollAndMint(call, '04C1B2C3D4E5A2');
    anchor = `${stack.api.config.publicBaseUrl}/test${path()}`;
  });
  afterAll(() => stack.close());

  test('format=untp: a UNTP 0.7.0 DigitalProductPassport with the passport’s facts and the EN 18223 header', async () => {
    const answer = await untp();
    assert.match(answer.headers.get('content-type')!, /^application\/ld\+json/);
    const vc = answer.body;
    const base = stack.api.config.publicBaseUrl;
    assert.deepEqual(vc['@context'], [
      'https://www.w3.org/ns/credentials/v2',
      UNTP_CONTEXT,
      `${base}/contexts/untp-dpp/v1`,
    ]);
    assert.deepEqual(vc.type, ['DigitalProductPassport', 'VerifiableCredential']);
    assert.match(vc.id, /^urn:uuid:[0-9a-f-]{36}$/);
    assert.equal(vc.issuer.id, `did:web:${new URL(base).hostname}%3A${new URL(base).port}:test`);
    assert.deepEqual(vc.issuer.type, ['CredentialIssuer']);
    assert.equal(vc.name, 'Digital Product Passport: Trail Jacket');
    assert.equal(vc.credentialStatus.type, 'BitstringStatusListEntry');
    assert.equal(typeof vc.credentialStatus.statusListIndex, 'number', 'UNTP types it as an integer');
    assert.equal(vc.proof.cryptosuite, 'eddsa-rdfc-2022');
    const product = vc.credentialSubject;
    assert.equal(product.id, anchor);
    assert.equal(product.itemNumber, tokenId);
    assert.equal(product.modelNumber, GTIN);
    assert.equal(product.batchNumber, 'LOT-7/B');
    assert.equal(product.idGranularity, 'item');
    assert.deepEqual(
      product.productCategory.map((c: Json) => [c.code, c.name]),
      [['620293', 'Apparel']],
    );
    assert.deepEqual(product.countryOfProduction, { countryCode: 'PT' });
    assert.equal(product.producedAtFacility.id, 'https://id.gs1.org/414/4012345000009');
    assert.deepEqual(product.relatedParty, [
      {
        role: 'manufacturer',
        party: { type: ['Party'], id: 'https://id.gs1.org/417/4012345000009', name: 'Acme Apparel GmbH' },
      },
    ]);
    assert.deepEqual(
      product.relatedDocument.map((d: Json) => d.linkURL),
      [`${anchor}?format=vc`, CONFORMITY_URL],
    );
    const header = product.characteristics.passportHeader;
    assert.match(header.digitalProductPassportId, /^urn:uuid:[0-9a-f-]{36}$/);
    assert.equal(header.id, header.digitalProductPassportId);
    assert.equal(header.uniqueProductIdentifier, anchor);
    assert.equal(header.granularity, 'item');
    assert.equal(header.dppStatus, 'active');
    assert.ok(Array.isArray(header.contentSpecificationIds) && header.contentSpecificationIds.length > 0);
    assert.equal(Number.isNaN(Date.parse(header.lastUpdated)), false);

    // The seed's credential is unchanged beside it.
    const seed = await get(`${path()}?format=vc`);
    assert.deepEqual(seed.body['@context'], [
      'https://www.w3.org/ns/credentials/v2',
      `${base}/contexts/dpp/v1`,
    ]);
  });

  test('dppvalidator 0.5.1: CLI valid; schema, model, semantic and JSON-LD layers pass; the other two as documented', async () => {
    const { body: vc } = await untp();
    const extension = await get('/contexts/untp-dpp/v1');
    assert.equal(extension.status, 200);
    const contexts = { [vc['@context'][2]]: extension.body };
    const report = await runDppvalidator(vc, contexts);
    assert.equal(report.cli.exitCode, 0, JSON.stringify(report.cli.result.errors));
    assert.equal(report.cli.result.valid, true);
    for (const layer of ['schema', 'model', 'semantic', 'jsonld'] as const) {
      const verdict = report.layers[layer];
      assert.equal(verdict.crashed, undefined, `${layer}: ${verdict.crashed}`);
      assert.deepEqual(verdict.errors, [], `${layer}: ${JSON.stringify(verdict.errors)}`);
      assert.equal(verdict.valid, true, layer);
    }
    // Every term of ours expanded, the header's included. What the layer reports dropped is only what its own
    // stand-in for the W3C VC 2.0 context (a hand-made subset it bundles instead of the real one) leaves out:
    // credentialStatus and the Data Integrity proof's members, which the real context defines.
    const dropped = report.layers.jsonld.warnings!.filter((w) => w.code === 'JLD002' || w.code === 'JLD004');
    assert.deepEqual(
      dropped.filter((w) => !/^\$\.(credentialStatus|proof)\b/.test(w.path)),
      [],
      JSON.stringify(dropped),
    );
    // 0.5.1's vocabulary layer reads UNTP 0.6 attributes (credentialSubject.materials_provenance) and raises on
    // every 0.7.0 passport that parses, UNTP's own sample included (docs/untp.md).
    assert.match(report.layers.vocabulary.crashed ?? '', /has no attribute 'materials_provenance'/);
    // Its signature layer resolves did:web over https only (our test service speaks http) and verifies against
    // publicKeyJwk only, over concatenated N-Quads rather than eddsa-rdfc-2022's hashes (docs/untp.md).
    assert.equal(report.layers.signature.issuerDid, vc.issuer.id);
    assert.ok(
      report.layers.signature.errors!.some((e) => e.message.startsWith('Could not resolve DID')),
      JSON.stringify(report.layers.signature),
    );

    // The tool checks what it claims: a passport without its required product category fails the schema.
    const broken = structuredClone(vc);
    delete broken.credentialSubject.productCategory;
    const rejected = await runDppvalidator(broken, contexts);
    assert.equal(rejected.cli.exitCode, 1);
    assert.equal(rejected.layers.schema.valid, false);
  });

  test('its proof verifies with @digitalbazaar/vc (status list too); a change breaks it', async () => {
    const { body: vc } = await untp();
    const { documentLoader, fetched } = await loaderWithUntp();
    const result = await verifyWithDigitalBazaar(vc, documentLoader);
    assert.equal(result.verified, true, JSON.stringify(result.error ?? result.results, null, 1));
    assert.equal(await revocationBit(vc, documentLoader), false);
    assert.ok(fetched.some((url) => url.endsWith('/test/did.json')));
    const altered = structuredClone(vc);
    altered.credentialSubject.countryOfProduction.countryCode = 'CN';
    assert.equal((await verifyWithDigitalBazaar(altered, documentLoader)).verified, false);
  });

  test('Accept: application/vc+jwt and format=vc-jwt: a compact JWS that jose verifies with the did:web key', async () => {
    const byAccept = await get(path(), { accept: 'application/vc+jwt' });
    assert.equal(byAccept.status, 200, byAccept.text);
    assert.equal(byAccept.headers.get('content-type'), 'application/vc+jwt');
    const byFormat = await get(`${path()}?format=vc-jwt`);
    assert.equal(byFormat.status, 200);
    assert.equal(byFormat.text, byAccept.text, 'the same signed form either way');
    // format wins over Accept; Accept's preferences are honoured.
    const formatWins = await get(`${path()}?format=untp`, { accept: 'application/vc+jwt' });
    assert.match(formatWins.headers.get('content-type')!, /^application\/ld\+json/);
    assert.equal(formatWins.body.proof.type, 'DataIntegrityProof');
    const prefersLd = await get(path(), { accept: 'application/vc+jwt;q=0.5, application/ld+json' });
    assert.match(prefersLd.headers.get('content-type')!, /^application\/ld\+json/);
    assert.equal(prefersLd.body.type[1], 'DigitalProductPassport', 'the seed’s credential, as before');
    assert.match(byAccept.headers.get('vary')!, /Accept/);
    const jws = byAccept.text;
    assert.match(jws, /^[\w-]+\.[\w-]+\.[\w-]+$/);

    // The key, as a verifier finds it: the did:web document over HTTP, the kid's verification method.
    const header = JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString());
    assert.equal(header.typ, 'vc+jwt');
    assert.equal(header.alg, 'EdDSA');
    const didDocument = (await get('/test/did.json')).body;
    const method = didDocument.verificationMethod.find((vm: Json) => vm.id === header.kid);
    assert.ok(method, `${header.kid} is a verification method of ${didDocument.id}`);
    assert.ok(didDocument.assertionMethod.includes(header.kid));
    // Multikey → raw Ed25519 key (multicodec 0xed 0x01 prefix) → JWK for jose.
    const raw = base58btcDecode(method.publicKeyMultibase.slice(1)).subarray(2);
    const key = await importJWK(
      { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') },
      'EdDSA',
    );
    const { payload, protectedHeader } = await compactVerify(jws, key, { algorithms: ['EdDSA'] });
    assert.equal(protectedHeader.typ, 'vc+jwt');
    const credential = JSON.parse(new TextDecoder().decode(payload));
    const { proof: _proof, ...unsecured } = (await untp()).body;
    assert.deepEqual(credential, unsecured, 'the payload is the unsecured UNTP credential');

    const [h, p, s] = jws.split('.') as [string, string, string];
    const tampered = Buffer.from(JSON.stringify({ ...credential, name: 'Counterfeit' })).toString(
      'base64url',
    );
    await assert.rejects(compactVerify(`${h}.${tampered}.${s}`, key), /signature verification failed/);
    assert.notEqual(p, tampered);
  });

  test('the company’s header settings: economic operator as brand owner, facility as producedAtFacility; re-signed', async () => {
    const before = (await untp()).body;
    assert.equal('economicOperatorId' in before.credentialSubject.characteristics.passportHeader, false);
    const set = await call('PATCH', '/v1/company/settings', {
      economicOperatorId: '4098765000003',
      facilityId: 'https://factory.acme.example/sites/porto',
    });
    assert.equal(set.status, 200, set.text);
    try {
      const after = (await untp()).body;
      const header = after.credentialSubject.characteristics.passportHeader;
      assert.equal(header.economicOperatorId, '4098765000003');
      assert.equal(header.facilityId, 'https://factory.acme.example/sites/porto');
      assert.equal(after.credentialSubject.producedAtFacility.id, 'https://factory.acme.example/sites/porto');
      assert.deepEqual(after.credentialSubject.relatedParty[1], {
        role: 'brandOwner',
        party: {
          type: ['Party'],
          id: 'https://id.gs1.org/417/4098765000003',
          name: 'Acme Apparel',
          registeredId: '4098765000003',
        },
      });
      assert.notEqual(after.proof.proofValue, before.proof.proofValue);
      assert.notEqual(after.id, before.id);
      const { documentLoader } = await loaderWithUntp();
      assert.equal((await verifyWithDigitalBazaar(after, documentLoader)).verified, true);
    } finally {
      await call('PATCH', '/v1/company/settings', { economicOperatorId: null, facilityId: null });
    }
  });

  test('revoked: the UNTP credential’s status bit is set and its header says suspended', async () => {
    const revocable = await enrollAndMint(call, '04C1B2C3D4E5A3', FULL_PRODUCT);
    const before = (await get(`/01/${GTIN}/21/${revocable}?format=untp`)).body;
    const { documentLoader } = await loaderWithUntp();
    assert.equal(await revocationBit(before, documentLoader), false);
    const revoked = await call('POST', '/v1/dpp/revoke', {
      tokenId: revocable,
      reason: 'Withdrawn from sale',
    });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(
      await revocationBit(before, documentLoader),
      true,
      'the credential a holder kept is revoked',
    );
    const after = (await get(`/01/${GTIN}/21/${revocable}?format=untp`)).body;
    assert.equal(after.credentialSubject.characteristics.passportHeader.dppStatus, 'suspended');
    assert.equal(after.credentialStatus.statusListIndex, before.credentialStatus.statusListIndex);
    assert.equal(await revocationBit(after, documentLoader), true);
  });

  test('a passport without what UNTP requires: 404 untp_data_missing, and the linkset does not offer it', async () => {
    for (const form of ['untp', 'vc-jwt']) {
      const answer = await get(`/01/${GTIN}/21/${plainToken}?format=${form}`);
      assert.equal(answer.status, 404, answer.text);
      assert.equal(answer.body.code, 'untp_data_missing');
      assert.match(answer.body.detail, /productCategory/);
    }
    const linkset = (await get(`/01/${GTIN}/21/${plainToken}?linkType=linkset`)).body.linkset[0];
    assert.deepEqual(
      linkset.dpp.map((t: Json) => t.type),
      ['application/ld+json'],
    );
  });

  test('linkset: IANA dpp beside gs1:dpp with the UNTP and VC-JOSE forms; valid per the GS1 resolver 1.2.0 schema', async () => {
    const answer = await get(`${path()}?linkType=linkset`);
    assert.equal(answer.status, 200, answer.text);
    const [entry] = answer.body.linkset;
    assert.deepEqual(entry.dpp, entry['https://gs1.org/voc/dpp']);
    assert.deepEqual(
      entry.dpp.map((t: Json) => [t.href, t.type]),
      [
        [`${anchor}?format=vc`, 'application/ld+json'],
        [`${anchor}?format=untp`, 'application/ld+json'],
        [`${anchor}?format=vc-jwt`, 'application/vc+jwt'],
      ],
    );
    for (const target of entry.dpp) {
      const local = target.href.replace(stack.api.config.publicBaseUrl, '');
      const followed = await get(local);
      assert.equal(followed.status, 200, target.href);
      assert.match(followed.headers.get('content-type')!, new RegExp(`^${target.type.replace('+', '\\+')}`));
    }
    // linkType=gs1:dpp still redirects to the seed's credential.
    assert.equal((await get(`${path()}?linkType=gs1:dpp`)).headers.get('location'), `${anchor}?format=vc`);

    const verdict = checkGs1Linkset(answer.body);
    assert.equal(verdict.valid, true, JSON.stringify(verdict.errors));
    // The schema is not a rubber stamp: a target without its title, or an unknown member, is refused.
    const untitled = structuredClone(answer.body);
    delete untitled.linkset[0].dpp[1].title;
    assert.equal(checkGs1Linkset(untitled).valid, false);
    const extra = structuredClone(answer.body);
    extra.linkset[0].dpp[0].unknownMember = true;
    assert.equal(checkGs1Linkset(extra).valid, false);
  });
});
