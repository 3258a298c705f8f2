import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { localDocumentLoader, verifyWithDigitalBazaar } from '../support/credential-verifier.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { publicCall } from './fixtures/public-passport.ts';

// biome-ignore lint/suspicious/noExplicitAny: credentials as served
type Json = any;

// Issue 20 item 1: format=vc answered 500 ("Maximum deep iterations exceeded", RDF canonicalisation while signing)
// once a passport had four provenance entries, and with it the linkset's gs1:dpp link and the verification page's
// "Verifiable credential" link. A product's credential has to be served and verifiable however long its history.
describe('format=vc with a long provenance: served, verified independently, every event on the page', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let loader: Awaited<ReturnType<typeof localDocumentLoader>>;
  let get: ReturnType<typeof publicCall>;
  let chip = 0x10;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const sql = (statement: string, params: unknown[]) =>
    stack.api.db.orm.em.getConnection().execute(statement, params);
  const mint = () => enrollAndMint(call, `04C1B2C3D4E5${(chip++).toString(16).toUpperCase()}`);
  /** Where a served link points on the test server (links name PUBLIC_BASE_URL). */
  const local = (href: string) => href.replace(stack.api.config.publicBaseUrl, '');

  /** Logs events through POST /v1/iaas/log-event, then waits until each is anchored on chain. */
  const logThroughApi = async (tokenId: string, places: string[]) => {
    const ids: number[] = [];
    for (const [i, place] of places.entries()) {
      const logged = await call('POST', '/v1/iaas/log-event', {
        tokenId,
        action: i % 2 === 0 ? 'SHIPPED' : 'DELIVERED',
        locationName: place,
        latitude: 53.5 + i / 100,
        longitude: 9.9,
        metadata: {},
      });
      assert.equal(logged.status, 201, logged.text);
      ids.push(logged.body.eventId);
    }
    await Promise.all(
      ids.map((id) => stack.temporal.client.workflow.getHandle(`anchor-event:test:${id}`).result()),
    );
  };

  /**
   * Many events at once, written as the log-event path writes them (same table and columns; not anchored),
   * all alike: the same action, place and second, the worst case for canonicalisation.
   */
  const logInBulk = async (tokenId: string, count: number) => {
    await sql(
      `insert into supply_chain_events (company_id, environment, token_id, action, actor, location_name, latitude,
         longitude, metadata, timestamp)
       select ?, 'test', ?, 'SHIPPED', 'Acme Apparel', 'Hamburg DC', 53.5, 9.9, '{}', date_trunc('second', now())
       from generate_series(1, ?::int)`,
      [tenant.companyId, tokenId, count],
    );
  };

  /** The credential as served, checked by the independent verifier; and the page with its links. */
  const servedAndVerified = async (tokenId: string, entries: number) => {
    const answer = await get(`/01/${GTIN}/21/${tokenId}?format=vc`);
    assert.equal(answer.status, 200, answer.text.slice(0, 500));
    const vc: Json = answer.body;
    const provenance: Json[] = vc.credentialSubject.provenance;
    assert.equal(provenance.length, entries);
    const result = await verifyWithDigitalBazaar(vc, loader.documentLoader);
    assert.equal(result.verified, true, JSON.stringify(result.error ?? result.results, null, 1));
    const ids = provenance.map((entry) => entry.id);
    assert.equal(new Set(ids).size, entries, 'every entry has its own IRI');
    for (const id of ids) assert.ok(id.startsWith(`${vc.credentialSubject.id}#event-`), id);

    const page = await get(`/verify/01/${GTIN}/21/${tokenId}`, { accept: 'text/html' });
    assert.equal(page.status, 200);
    assert.equal(page.text.match(/class="timeline__item"/g)?.length ?? 0, entries, 'every event on the page');
    const vcLink = page.text.match(/<a href="([^"]+)">Verifiable credential/)?.[1];
    assert.ok(vcLink, 'the page links the credential');
    assert.equal(
      (await get(local(vcLink.replaceAll('&amp;', '&')))).status,
      200,
      'the page’s credential link',
    );

    const linkset = await get(`/01/${GTIN}/21/${tokenId}?linkType=linkset`);
    const dpp = linkset.body.linkset[0]['https://gs1.org/voc/dpp'][0].href;
    assert.equal((await get(local(dpp))).status, 200, 'the linkset’s gs1:dpp link');
    return { vc, page: page.text };
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    get = publicCall(stack.api);
    loader = await localDocumentLoader({
      baseUrl: stack.api.baseUrl,
      publicBaseUrl: stack.api.config.publicBaseUrl,
    });
  });
  afterAll(() => stack.close());

  test('no event at all (a passport whose history has no rows)', async () => {
    const tokenId = await mint();
    await sql(`delete from supply_chain_events where environment = 'test' and token_id = ?`, [tokenId]);
    await servedAndVerified(tokenId, 0);
  });

  test('one event: the mint', async () => {
    const tokenId = await mint();
    const { vc } = await servedAndVerified(tokenId, 1);
    assert.equal(vc.credentialSubject.provenance[0].action, 'MINT');
  });

  test('four events: the mint and three logged through the API', async () => {
    const tokenId = await mint();
    await logThroughApi(tokenId, ['Porto', 'Port of Leixões', 'Port of Hamburg']);
    await servedAndVerified(tokenId, 4);
  });

  test('the issue’s reproduction: twelve events logged through the API; a new event keeps the earlier ids', async () => {
    const tokenId = await mint();
    const places = Array.from({ length: 12 }, (_, i) => `Stop ${i + 1}`);
    await logThroughApi(tokenId, places);
    const { vc, page } = await servedAndVerified(tokenId, 13);
    const provenance: Json[] = vc.credentialSubject.provenance;
    assert.deepEqual(
      provenance.map((entry) => entry.location),
      [undefined, ...places],
      'in the order they were logged',
    );
    for (const entry of provenance) assert.match(entry.tx, /^0x[0-9a-f]{64}$/);
    let at = 0;
    for (const place of places) {
      at = page.indexOf(`>${place}`, at);
      assert.ok(at > 0, `${place} on the page, in order`);
    }

    await logThroughApi(tokenId, ['Stop 13']);
    const next = await servedAndVerified(tokenId, 14);
    assert.notEqual(next.vc.proof.proofValue, vc.proof.proofValue, 'a new version');
    assert.deepEqual(
      next.vc.credentialSubject.provenance.slice(0, 13).map((entry: Json) => entry.id),
      provenance.map((entry) => entry.id),
      'an event keeps its IRI in later versions',
    );
  });

  for (const count of [50, 500]) {
    test(`${count} events: the mint and ${count - 1} alike, written in bulk`, async () => {
      const tokenId = await mint();
      await logInBulk(tokenId, count - 1);
      await servedAndVerified(tokenId, count);
    });
  }
});
