import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { checkGs1Linkset, checkRefGs1Linkset } from '../conformance/support/linkset-schema.ts';
import type { TestTenant } from '../support/api.ts';
import { BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { publicCall } from './fixtures/public-passport.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const LOT = 'LOT-7';
const SECRET_REPORT = 'https://model.example/lab/secret-report.pdf';
const MODEL = 'https://schema.org/model';

/** Both of GS1's linkset schemas, and RFC 9264's shape: every relation an array of targets with an absolute href. */
function assertValidLinkset(linkset: Json): void {
  for (const check of [checkGs1Linkset, checkRefGs1Linkset]) {
    const verdict = check(linkset);
    assert.equal(verdict.valid, true, JSON.stringify(verdict.errors));
  }
  for (const context of linkset.linkset) {
    assert.match(context.anchor, /^https?:\/\//);
    for (const [relation, targets] of Object.entries(context)) {
      if (relation === 'anchor' || relation === 'itemDescription') continue;
      assert.ok(/^[a-z][a-z0-9.-]*$/.test(relation) || /^https?:\/\//.test(relation), `relation ${relation}`);
      for (const target of targets as Json[]) assert.match(target.href, /^https?:\/\//, relation);
    }
  }
}

/**
 * Issue 41 item 3 (walk-up) and issue 34 item 2 (the resolver's formats for model and batch passports, typed
 * links both ways), through HTTP on the real app.
 */
describe('resolver: model and batch passports, walk-up and typed links', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let get: ReturnType<typeof publicCall>;
  let base: string;
  let modelId: string;
  let batchId: string;
  let tokenId: string;
  const modelLink = () => `${base}/01/${GTIN}`;
  const batchLink = () => `${base}/01/${GTIN}/10/${LOT}`;
  const create = (body: unknown) => stack.api.call('POST', '/v1/dpps', { key: brand.testKey, body });
  /** A path of this service from an absolute URL it handed out. */
  const local = (url: string) => url.slice(stack.api.config.publicBaseUrl.length);

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    get = publicCall(stack.api);
    base = `${stack.api.config.publicBaseUrl}/test`;
    tokenId = await enrollAndMint(
      (method, path, body) => stack.api.call(method, path, { key: brand.testKey, body }),
      '04A1A2A3A4A577',
      { batch_number: LOT },
    );
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('walk-up: /01/{gtin}, a lot and a variant reach the model once it exists, a lot its batch once that exists', async () => {
    assert.equal((await get(`/01/${GTIN}`)).status, 404, 'no model yet');
    const model = await create({
      granularity: 'Model',
      gtin: GTIN,
      [V1]: {
        generalProductInformation: { manufacturerName: 'Voltaic Model Works', warrantyPeriod: 'P8Y' },
        conformityAndLabels: { testReportsProvingCompliance: [SECRET_REPORT] },
      },
    });
    assert.equal(model.status, 201, model.text);
    modelId = model.body.digitalProductPassportId;
    const modelPage = `${base}/verify/01/${GTIN}`;
    for (const [address, canonical] of [
      [`/01/${GTIN}`, false],
      [`/01/${GTIN}/`, false],
      [`/01/${GTIN.slice(1)}`, true],
      [`/01/${GTIN}/10/${LOT}`, true],
      [`/01/${GTIN}/22/V1`, true],
      [`/01/${GTIN}/22/V1/10/${LOT}`, true],
    ] as const) {
      const answer = await get(`${address}?foo=bar`);
      assert.equal(answer.status, 307, `${address}: ${answer.text}`);
      assert.equal(answer.headers.get('location'), `${modelPage}?foo=bar`, address);
      const link = answer.headers.get('link')!;
      assert.match(link, new RegExp(`<${modelLink()}\\?linkType=linkset>; rel="linkset"`), address);
      assert.equal(link.includes(`<${modelLink()}>; rel="canonical"`), canonical, `${address}: ${link}`);
    }

    const batch = await create({
      granularity: 'Batch',
      gtin: GTIN,
      lot: LOT,
      [V1]: { generalProductInformation: { warrantyPeriod: 'P10Y' } },
    });
    assert.equal(batch.status, 201, batch.text);
    batchId = batch.body.digitalProductPassportId;
    const batchPage = `${base}/verify/01/${GTIN}/10/${LOT}`;
    for (const [address, location] of [
      [`/01/${GTIN}/10/${LOT}`, batchPage],
      [`/01/${GTIN}/22/V1/10/${LOT}`, batchPage],
      [`/01/${GTIN}/10/OTHER-LOT`, modelPage],
      [`/01/${GTIN}`, modelPage],
    ]) {
      const answer = await get(address!);
      assert.equal(answer.status, 307, `${address}: ${answer.text}`);
      assert.equal(answer.headers.get('location'), location, address);
    }
    // A serial names an item: an unknown one does not walk up to the model.
    const unknown = await get(`/01/${GTIN}/21/NO-SUCH-SERIAL?format=public`);
    assert.equal(unknown.status, 404, unknown.text);
    const item = await get(`/01/${GTIN}/10/${LOT}/21/${tokenId}?format=public`);
    assert.equal(item.status, 200, item.text);
    assert.equal(item.body['gs1:serialNumber'], tokenId);
  });

  test('linkset of a model and a batch: GS1’s schemas, the batch → its model, both → their EN 18222 read', async () => {
    for (const [address, dppId] of [
      [`/01/${GTIN}/10/${LOT}?format=linkset`, batchId],
      [`/01/${GTIN}`, modelId],
    ] as const) {
      const answer = await get(address, { accept: 'application/linkset+json' });
      assert.equal(answer.status, 200, `${address}: ${answer.text}`);
      assert.match(answer.headers.get('content-type')!, /^application\/linkset\+json/);
      assertValidLinkset(answer.body);
      const context = answer.body.linkset[0];
      const read = `${stack.api.config.publicBaseUrl}/v1/dpps/${dppId}`;
      assert.ok(
        context['https://gs1.org/voc/dpp'].some(
          (t: Json) => t.href === read && t.type === 'application/json',
        ),
        JSON.stringify(context),
      );
      assert.deepEqual(context.dpp, context['https://gs1.org/voc/dpp']);
      assert.equal(context['https://gs1.org/voc/defaultLink'].length, 1);
      const followed = await stack.api.call('GET', local(read), { key: null });
      assert.equal(followed.status, 200, followed.text);
      assert.equal(followed.body.digitalProductPassportId, dppId);
    }
    const batch = (await get(`/01/${GTIN}/10/${LOT}?linkType=linkset`)).body.linkset[0];
    assert.equal(batch.anchor, batchLink());
    assert.deepEqual(
      batch[MODEL].map((t: Json) => t.href),
      [modelLink()],
    );
    const model = (await get(`/01/${GTIN}?linkType=linkset`)).body.linkset[0];
    assert.equal(model.anchor, modelLink());
    assert.equal(model[MODEL], undefined, 'a model has no model above it');
    // A link type the level has: 307 to it; one it has not: 404.
    const dpp = await get(`/01/${GTIN}?linkType=gs1:dpp`);
    assert.equal(dpp.status, 307);
    assert.equal(dpp.headers.get('location'), `${stack.api.config.publicBaseUrl}/v1/dpps/${modelId}`);
    const none = await get(`/01/${GTIN}?linkType=gs1:sustainabilityInfo`);
    assert.equal(none.status, 404, none.text);
    assert.equal(none.body.code, 'link_type_not_found');
  });

  test('format=public of a level is its public view: the fields an anonymous EN 18222 read shows', async () => {
    const anonymous = await stack.api.call('GET', `/v1/dpps/${encodeURIComponent(modelId)}`, { key: null });
    assert.equal(anonymous.status, 200, anonymous.text);
    for (const headers of [{}, { accept: 'application/json' }] as Record<string, string>[]) {
      const address = Object.keys(headers).length === 0 ? `/01/${GTIN}?format=public` : `/01/${GTIN}`;
      const answer = await get(address, headers);
      assert.equal(answer.status, 200, answer.text);
      assert.match(answer.headers.get('content-type')!, /^application\/json/);
      assert.equal(answer.body['@id'], modelLink());
      assert.equal(answer.body.granularity, 'model');
      assert.equal(answer.body['gs1:gtin'], GTIN);
      assert.equal(answer.body.status, 'ACTIVE');
      assert.equal(answer.body.dppHeader.digitalProductPassportId, modelId);
      assert.deepEqual(answer.body.productGroupData[V1], anonymous.body[V1]);
      assert.equal(answer.body.productGroupData[V1].generalProductInformation.warrantyPeriod, 'P8Y');
      assert.ok(!answer.text.includes(SECRET_REPORT), 'a restricted field stays restricted');
    }
    const full = await get(`/01/${GTIN}?format=public`);
    const head = await get(`/01/${GTIN}?format=public`, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), full.headers.get('etag'), 'HEAD answers the same representation');
    assert.equal(
      (await get(`/01/${GTIN}?format=public`, { 'if-none-match': full.headers.get('etag')! })).status,
      304,
    );
    const batch = await get(`/01/${GTIN}/10/${LOT}?format=public`);
    assert.equal(batch.status, 200, batch.text);
    assert.equal(batch.body.granularity, 'batch');
    assert.equal(batch.body.batchNumber, LOT);
    assert.equal(batch.body.model, modelLink());
    assert.equal(batch.body.productGroupData[V1].generalProductInformation.warrantyPeriod, 'P10Y');
  });

  test('format=erp (the ERP record of one item) is 400 format_not_available naming the formats that are', async () => {
    const answer = await get(`/01/${GTIN}/10/${LOT}?format=erp`);
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.body.code, 'format_not_available');
    assert.match(
      answer.body.detail,
      /format=public, format=linkset, format=vc, format=untp, format=vc-jwt, format=aas/,
    );
  });

  test('the page of a model and of a batch: what it is, its public data, the batch’s model', async () => {
    const modelPage = await get(local(`${base}/verify/01/${GTIN}`));
    assert.equal(modelPage.status, 200, modelPage.text);
    assert.match(modelPage.headers.get('content-type')!, /^text\/html/);
    assert.match(modelPage.text, /Model passport<\/strong> — shared by every item of this product/);
    assert.match(modelPage.text, /Voltaic Model Works/);
    assert.match(modelPage.text, new RegExp(GTIN));
    assert.ok(!modelPage.text.includes(SECRET_REPORT));
    assert.match(modelPage.headers.get('content-security-policy')!, /default-src 'none'/);
    const batchPage = await get(local(`${base}/verify/01/${GTIN}/10/${LOT}`));
    assert.equal(batchPage.status, 200, batchPage.text);
    assert.match(batchPage.text, /Batch passport<\/strong> — shared by every item of batch LOT-7/);
    assert.match(batchPage.text, new RegExp(`id="model-link" href="${base}/verify/01/${GTIN}"`));
    assert.equal((await get(local(`${base}/verify/01/${GTIN}/10/NO-BATCH`))).status, 404);
  });

  test('an item names its batch and model: in its linkset (GS1’s schemas) and on its page', async () => {
    const linkset = await get(`/01/${GTIN}/21/${tokenId}?linkType=linkset`);
    assert.equal(linkset.status, 200, linkset.text);
    assertValidLinkset(linkset.body);
    const context = linkset.body.linkset[0];
    assert.deepEqual(
      context.collection.map((t: Json) => t.href),
      [batchLink()],
    );
    assert.deepEqual(
      context[MODEL].map((t: Json) => t.href),
      [modelLink()],
    );
    const page = await get(local(`${base}/verify/01/${GTIN}/21/${tokenId}`));
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /id="part-of"/);
    assert.match(page.text, new RegExp(`id="part-of-batch" href="${base}/verify/01/${GTIN}/10/${LOT}"`));
    assert.match(page.text, new RegExp(`id="part-of-model" href="${base}/verify/01/${GTIN}"`));
  });
});
