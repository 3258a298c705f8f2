import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN, OTHER_GTIN, TRAIL_JACKET } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * GET /v1/dpp/passports?q=…: free text over the product name, GTIN, batch, chip UID and token id (issue 36),
 * combined with the exact filters, within the caller's company; a bad value answers 400 naming the field and
 * the rule.
 */
describe('passport search by free text', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let other: TestTenant;
  const minted: Record<string, string> = {};
  const search = async (tenant: TestTenant, query: string) => {
    const res = await stack.api.call('GET', `/v1/dpp/passports?${query}`, { key: tenant.testKey });
    assert.equal(res.status, 200, res.text);
    return res.body.passports.map((p: { tokenId: string }) => p.tokenId);
  };

  beforeAll(async () => {
    stack = await startTestStack({ mintWaitMs: 2000 });
    brand = await stack.api.createTenant('Brand');
    other = await stack.api.createTenant('Other');
    const mint = async (tenant: TestTenant, chipUid: string, name: string, gtin: string, batch: string) => {
      const call = (method: string, path: string, body: unknown) =>
        stack.api.call(method, path, { key: tenant.testKey, body });
      assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid })).status, 201);
      const res = await call(
        'POST',
        '/v1/dpp/mint',
        mintBody({
          chipUid,
          ...TRAIL_JACKET,
          name,
          custom_dpp_data: { gtin, conformity_url: CONFORMITY_URL, batch_number: batch },
        }),
      );
      assert.equal(res.status, 201, res.text);
      return res.body.blockchain.tokenId as string;
    };
    minted.jacket = await mint(brand, '04AB5E00000001', 'Trail Jacket', GTIN, 'LOT-Q7');
    minted.raincoat = await mint(brand, '04AB5E00000002', 'Harbour Raincoat', OTHER_GTIN, 'LOT-Q8');
    minted.foreign = await mint(other, '04AB5E00000003', 'Harbour Raincoat', GTIN, 'LOT-Q7');
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('a fragment of any of the five, any case, newest first, only the caller’s company', async () => {
    assert.deepEqual(await search(brand, 'q=RAINCO'), [minted.raincoat], 'name; not the other company’s');
    assert.deepEqual(await search(other, 'q=raincoat'), [minted.foreign]);
    assert.deepEqual(await search(brand, 'q=lot-q'), [minted.raincoat, minted.jacket], 'batch');
    assert.deepEqual(await search(brand, `q=${GTIN.slice(4, 12)}`), [minted.jacket], 'GTIN');
    assert.deepEqual(await search(brand, 'q=ab5e00000001'), [minted.jacket], 'chip UID, lower case');
    assert.deepEqual(await search(brand, 'q=%20jacket%20'), [minted.jacket], 'trimmed');
    assert.deepEqual(await search(brand, 'q=Harbour%20Raincoat'), [minted.raincoat], 'words with a space');
  });

  test('free text and exact filters together; LIKE wildcards are plain characters', async () => {
    assert.deepEqual(await search(brand, `q=lot-q&gtin=${GTIN}`), [minted.jacket]);
    assert.deepEqual(await search(brand, 'q=lot-q&status=REVOKED'), []);
    assert.deepEqual(await search(brand, 'q=%25%25%25'), [], '%%% is not "anything"');
    assert.deepEqual(await search(brand, 'q=lot_q'), [], '_ is not "any character"');
  });

  test('a bad value → 400 naming the field and its rule', async () => {
    const problem = async (query: string) => {
      const res = await stack.api.call('GET', `/v1/dpp/passports?${query}`, { key: brand.testKey });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'validation_failed');
      return res.body.errors.map((e: { path: string; message: string }) => [e.path, e.message]);
    };
    assert.deepEqual(await problem('q=ab'), [['query.q', 'Search text must be at least 3 characters']]);
    assert.deepEqual(await problem(`q=${'x'.repeat(101)}`), [
      ['query.q', 'Search text must be at most 100 characters'],
    ]);
    assert.deepEqual(await problem('gtin=00012345600013'), [
      ['query.gtin', 'GTIN must be 8, 12, 13 or 14 digits with a valid GS1 check digit'],
    ]);
  });

  test('rows carry the mint transaction; no explorer configured → transactionUrl null', async () => {
    const res = await stack.api.call('GET', '/v1/dpp/passports?q=jacket', { key: brand.testKey });
    const [row] = res.body.passports;
    assert.match(row.transactionHash, /^0x[0-9a-f]{64}$/);
    assert.equal(row.transactionUrl, null);
    const openapi = (await stack.api.call('GET', '/openapi.json', { env: null })).body;
    const params = openapi.paths['/v1/dpp/passports'].get.parameters.map((p: { name: string }) => p.name);
    assert.ok(params.includes('q'), 'q is documented');
  });
});
