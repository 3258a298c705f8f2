import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { registerAuthority } from '../../src/passport/disclosure/grants.ts';
import { fullBatteryData } from '../fixtures/battery-passport-data.ts';
import type { TestTenant } from '../support/api.ts';
import { localDocumentLoader, verifyWithDigitalBazaar } from '../support/credential-verifier.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const V1 = 'urn:dpp-service:spec:battery:1.0.0';
const UNTP_CONTEXT = 'https://vocabulary.uncefact.org/untp/0.7.0/context/';
const SOH = 'stateOfHealthPercent';

/**
 * UNTP 0.7.0 per-audience variants over HTTP (issue 25): a battery passport has one signed credential per
 * audience, each holding exactly the battery fields its audience reads; the public one carries claim stubs and
 * otherVariants; restricted variants need a caller holding the role; the linkset lists the variants with their
 * accessRole and filters by ?accessRole=. Every variant verifies with @digitalbazaar/vc (eddsa-rdfc-2022).
 */
describe('UNTP per-audience variants of a battery passport', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let repairer: TestTenant;
  let authority: TestTenant;
  let stranger: TestTenant;
  let tokenId: string;
  let chipUid: string;
  const call = (method: string, path: string, body?: unknown, key = brand.testKey) =>
    stack.api.call(method, path, { key, ...(body === undefined ? {} : { body }) });
  const get = (path: string, key?: string) =>
    stack.api.call('GET', path, { env: 'test', ...(key ? { key } : {}) });
  const item = () => `/01/${GTIN}/21/${tokenId}`;

  const loader = async () => {
    const { documentLoader } = await localDocumentLoader({
      baseUrl: stack.api.baseUrl,
      publicBaseUrl: stack.api.config.publicBaseUrl,
    });
    const known = new Map<string, unknown>([
      [
        UNTP_CONTEXT,
        JSON.parse(
          readFileSync(
            new URL('../../src/standards/credentials/contexts/untp-0.7.0.jsonld', import.meta.url),
            'utf8',
          ),
        ),
      ],
    ]);
    for (const path of ['/contexts/untp-dpp/v1', '/contexts/untp-dpp-variants/v1']) {
      known.set(
        `${stack.api.config.publicBaseUrl}${path}`,
        await (await fetch(`${stack.api.baseUrl}${path}`)).json(),
      );
    }
    return async (url: string) =>
      known.has(url) ? { contextUrl: null, documentUrl: url, document: known.get(url) } : documentLoader(url);
  };
  const verified = async (credential: Json) => {
    const result = await verifyWithDigitalBazaar(credential, await loader());
    assert.equal(result.verified, true, JSON.stringify(result.error ?? result).slice(0, 1000));
  };
  const battery = (credential: Json) => credential.credentialSubject.productGroupData[V1];

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    repairer = await stack.api.createTenant('Second Life Storage');
    authority = await stack.api.createTenant('Market Surveillance Authority');
    stranger = await stack.api.createTenant('Someone Else');
    chipUid = '04E1E2E3E4E501';
    tokenId = await enrollAndMint((m, p, b) => call(m, p, b), chipUid, {
      ...FULL_PRODUCT,
      manufacturer_name: 'Voltaic Cells SE',
    });
    const view = await stack.api.call('GET', `/test${item()}?format=public`, { env: null });
    const dppId = view.body.dppHeader.digitalProductPassportId as string;
    const put = await call(
      'PUT',
      `/v1/dpps/${encodeURIComponent(dppId)}/content/${encodeURIComponent(V1)}`,
      fullBatteryData(),
    );
    assert.equal(put.status, 201, put.text);
    const granted = await call('POST', '/v1/disclosure-grants', {
      granteeCompanyId: repairer.companyId,
      role: 'repairer',
    });
    assert.equal(granted.status, 201, granted.text);
    assert.equal(await registerAuthority(stack.api.db.orm.em.fork(), authority.companyId, 'test'), true);
  }, 600_000);
  afterAll(() => stack?.close());

  test('the public variant: public battery fields, claim stubs for the rest, otherVariants; signed', async () => {
    const answer = await get(`${item()}?format=untp`);
    assert.equal(answer.status, 200, answer.text);
    const vc = answer.body;
    assert.equal(vc.accessRole, 'Anonymous');
    assert.equal(battery(vc).materialsAndComposition.chemistry, 'NMC811');
    for (const secret of ['BMU-8-2026', 'report-ul-1973', 'Deep discharge', `"${SOH}"`]) {
      assert.ok(!answer.text.includes(secret), `public variant shows ${secret}`);
    }
    const anchor = `${stack.api.config.publicBaseUrl}/test${item()}`;
    assert.deepEqual(
      vc.otherVariants.map((v: Json) => [v.accessRole, v.variantURL]),
      ['Customer', 'Regulator', 'Recycler', 'Auditor'].map((role) => [
        role,
        `${anchor}?format=untp&accessRole=${role}`,
      ]),
    );
    const stub = (name: string) => vc.credentialSubject.claimStubs.find((s: Json) => s.name === name);
    assert.deepEqual(stub('/performanceAndDurability/batteryCondition').accessRole, [
      'Customer',
      'Regulator',
      'Recycler',
    ]);
    assert.deepEqual(stub('/conformityAndLabels').accessRole, ['Regulator', 'Auditor']);
    assert.ok(stub('/circularity/sparePartSources/*'), JSON.stringify(vc.credentialSubject.claimStubs));
    assert.equal(stub('/generalProductInformation'), undefined, 'no stub for wholly public data');
    await verified(vc);
  });

  test('each restricted variant holds its audience’s fields, needs the role, and verifies', async () => {
    const regulator = `${item()}?format=untp&accessRole=Regulator`;
    const anonymous = await get(regulator);
    assert.equal(anonymous.status, 401, anonymous.text);
    const other = await get(regulator, stranger.testKey);
    assert.equal(other.status, 403, other.text);
    assert.equal((await get(`${item()}?format=untp&accessRole=Recycler`, authority.testKey)).status, 403);

    const asAuthority = await get(regulator, authority.testKey);
    assert.equal(asAuthority.status, 200, asAuthority.text);
    const reg = asAuthority.body;
    assert.equal(reg.accessRole, 'Regulator');
    assert.equal(reg.otherVariants, undefined);
    assert.equal(reg.credentialSubject.claimStubs, undefined);
    assert.equal(battery(reg).performanceAndDurability.batteryCondition[SOH], 98.6);
    assert.equal(battery(reg).conformityAndLabels.testReportsProvingCompliance.length, 2);
    await verified(reg);

    // Repairers read the Recycler variant: tier 2 and 4, no test reports.
    const rec = await get(`${item()}?format=untp&accessRole=Recycler`, repairer.testKey);
    assert.equal(rec.status, 200, rec.text);
    assert.equal(battery(rec.body).performanceAndDurability.batteryCondition[SOH], 98.6);
    assert.ok(battery(rec.body).circularity.sparePartSources.length > 0);
    assert.equal(battery(rec.body).conformityAndLabels.testReportsProvingCompliance, undefined);
    await verified(rec.body);

    // The customer: the owner's fresh tap on the request unlocks the Customer variant once.
    const sun = tapQuery(chipUid, 5);
    const customer = await get(`${item()}?format=untp&accessRole=Customer&${sun}`);
    assert.equal(customer.status, 200, customer.text);
    assert.equal(battery(customer.body).performanceAndDurability.batteryCondition[SOH], 98.6);
    assert.equal(battery(customer.body).circularity?.sparePartSources, undefined);
    await verified(customer.body);
    const replayed = await get(`${item()}?format=untp&accessRole=Customer&${sun}`);
    assert.equal(replayed.status, 401, replayed.text);

    // The brand reads every variant; the VC-JOSE form carries the same audience.
    const auditor = await get(`${item()}?format=untp&accessRole=Auditor`, brand.testKey);
    assert.equal(auditor.status, 200, auditor.text);
    assert.equal(battery(auditor.body).performanceAndDurability.batteryCondition, undefined);
    assert.equal(battery(auditor.body).conformityAndLabels.testReportsProvingCompliance.length, 2);
    const jwt = await get(`${item()}?format=vc-jwt&accessRole=Regulator`, authority.testKey);
    assert.equal(jwt.status, 200, jwt.text);
    const payload = decodeJwt(jwt.text) as Json;
    assert.equal(payload.accessRole, 'Regulator');
    assert.equal(payload.id, reg.id);
    // One signature per variant and version: the same request answers the same bytes.
    assert.equal((await get(regulator, authority.testKey)).text, asAuthority.text);
  });

  test('the linkset lists every variant with its accessRole and filters by ?accessRole=', async () => {
    const all = await get(`${item()}?linkType=linkset`);
    assert.equal(all.status, 200, all.text);
    const dpp = all.body.linkset[0]['https://gs1.org/voc/dpp'];
    const variants = dpp.filter((t: Json) => t.accessRole);
    assert.deepEqual(
      [...new Set(variants.map((t: Json) => t.accessRole[0]))],
      ['Anonymous', 'Customer', 'Regulator', 'Recycler', 'Auditor'],
    );
    assert.equal(variants.length, 10, 'both secured forms of each');
    const filtered = await get(`${item()}?linkType=linkset&accessRole=Regulator`);
    const only = filtered.body.linkset[0].dpp.filter((t: Json) => t.accessRole);
    assert.deepEqual(
      only.map((t: Json) => [t.accessRole[0], t.type]),
      [
        ['Regulator', 'application/ld+json'],
        ['Regulator', 'application/vc+jwt'],
      ],
    );
    assert.ok(only[0].href.endsWith('?format=untp&accessRole=Regulator'));
  });

  test('a passport without product-group data keeps its one credential for everyone', async () => {
    const plain = await enrollAndMint((m, p, b) => call(m, p, b), '04E1E2E3E4E502', FULL_PRODUCT);
    const one = await get(`/01/${GTIN}/21/${plain}?format=untp`);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.accessRole, undefined);
    const variant = await get(`/01/${GTIN}/21/${plain}?format=untp&accessRole=Regulator`, authority.testKey);
    assert.equal(variant.status, 404, variant.text);
    assert.equal(variant.body.code, 'variant_not_found');
    const linkset = await get(`/01/${GTIN}/21/${plain}?linkType=linkset`);
    assert.ok(!linkset.text.includes('accessRole'), linkset.text);
  });
});
