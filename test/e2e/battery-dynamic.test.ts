import assert from 'node:assert/strict';
import { Interface, type JsonFragment } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { registerAuthority } from '../../src/passport/disclosure/grants.ts';
import { fullBatteryData } from '../fixtures/battery-passport-data.ts';
import type { TestTenant } from '../support/api.ts';
import { sha256 } from '../support/canonical-sha256.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const V1 = 'urn:dpp-service:spec:battery:1.0.0';
const CONDITION = 'performanceAndDurability';

/**
 * Dynamic battery data over HTTP (issue 25 item 3): state of health, status and use events appended through
 * the API, each a new passport version whose PRODUCT_DATA_UPDATED event is anchored on chain by the supply-chain
 * anchor workflow; writes idempotent, refused field by field, history kept in the versions.
 */
describe('battery passport: dynamic data', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let stranger: TestTenant;
  let repairer: TestTenant;
  let authority: TestTenant;
  const call = (
    method: string,
    path: string,
    body?: unknown,
    key = brand.testKey,
    headers: Record<string, string> = {},
  ) => stack.api.call(method, path, { key, headers, ...(body === undefined ? {} : { body }) });
  const content = (dppId: string) =>
    `/v1/dpps/${encodeURIComponent(dppId)}/content/${encodeURIComponent(V1)}`;
  const dynamic = (dppId: string) => `${content(dppId)}/dynamic`;
  const versions = async (dppId: string): Promise<Json[]> => {
    const list = await call('GET', `/v1/dpps/${encodeURIComponent(dppId)}/versions?limit=100`);
    assert.equal(list.status, 200, list.text);
    return list.body.items;
  };
  const version = async (dppId: string, number: number, key: string | null = brand.testKey) => {
    const read = await stack.api.call('GET', `/v1/dpps/${encodeURIComponent(dppId)}/versions/${number}`, {
      ...(key ? { key } : {}),
      env: 'test',
    });
    assert.equal(read.status, 200, read.text);
    return read.body;
  };
  const mintBattery = async (chipUid: string): Promise<string> => {
    const tokenId = await enrollAndMint((m, p, b) => call(m, p, b), chipUid, {
      manufacturer_name: 'Voltaic Cells SE',
    });
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    assert.equal(view.status, 200, view.text);
    const dppId = view.body.dppHeader.digitalProductPassportId as string;
    const written = await call('PUT', content(dppId), fullBatteryData());
    assert.equal(written.status, 201, written.text);
    return dppId;
  };
  const anchored = (eventId: number) =>
    stack.temporal.client.workflow.getHandle(`anchor-event:test:${eventId}`).result();

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    stranger = await stack.api.createTenant('Someone Else');
    repairer = await stack.api.createTenant('Second Life Storage');
    authority = await stack.api.createTenant('Market Surveillance Authority');
    // The brand grants the repairer its role; the operator registers the authority (npm run cli -- authority:grant).
    const granted = await call('POST', '/v1/disclosure-grants', {
      granteeCompanyId: repairer.companyId,
      role: 'repairer',
    });
    assert.equal(granted.status, 201, granted.text);
    assert.equal(await registerAuthority(stack.api.db.orm.em.fork(), authority.companyId, 'test'), true);
  }, 600_000);
  afterAll(() => stack?.close());

  test('the brand updates state of health: a new version, anchored on chain, idempotent, earlier value kept', async () => {
    const dppId = await mintBattery('04D1D2D3D4D501');
    const before = await versions(dppId);
    const update = {
      batteryCondition: {
        measuredAt: '2026-11-24T08:00:00Z',
        stateOfHealthPercent: 91.5,
        stateOfChargePercent: 55,
        fullCycles: 402,
      },
      negativeEvents: [{ description: 'Cell imbalance above 80 mV', occurredAt: '2026-11-23T21:05:00Z' }],
    };
    const headers = { 'idempotency-key': `soh-${dppId}` };
    const first = await call('POST', dynamic(dppId), update, brand.testKey, headers);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.writerRole, 'operator');
    assert.equal(first.body.version.number, before.length + 1);
    assert.deepEqual([...first.body.changedFields].sort(), [
      `/${CONDITION}/batteryCondition/fullCycles`,
      `/${CONDITION}/batteryCondition/measuredAt`,
      `/${CONDITION}/batteryCondition/negativeEvents`,
      `/${CONDITION}/batteryCondition/stateOfChargePercent`,
      `/${CONDITION}/batteryCondition/stateOfHealthPercent`,
    ]);
    assert.equal(first.headers.get('location'), `${dynamic(dppId)}/${first.body.event.id}`);
    // The same request again with the same key: the first answer, no second version or event.
    const replay = await call('POST', dynamic(dppId), update, brand.testKey, headers);
    assert.equal(replay.status, 201, replay.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, first.body);
    assert.equal((await versions(dppId)).length, before.length + 1);

    // Anchored through the supply-chain anchor workflow: the event's data hash is in a mined log on anvil.
    await anchored(first.body.event.id);
    const followed = await call('GET', `${dynamic(dppId)}/${first.body.event.id}`);
    assert.equal(followed.status, 200, followed.text);
    const { event } = followed.body;
    assert.match(event.transactionHash, /^0x[0-9a-f]{64}$/);
    const receipt = await stack.chain.chain.provider.getTransactionReceipt(event.transactionHash);
    assert.ok(receipt, 'transaction mined on anvil');
    assert.equal(receipt.status, 1);
    assert.equal(receipt.blockNumber, event.blockNumber);
    const contract = new Interface(stack.chain.chain.artifact.abi as JsonFragment[]);
    const logged = receipt.logs
      .map((log) => contract.parseLog({ topics: [...log.topics], data: log.data }))
      .find((parsed) => parsed?.name === 'SupplyChainEvent');
    assert.ok(logged, 'SupplyChainEvent log');
    assert.equal(logged.args.action, 'PRODUCT_DATA_UPDATED');
    assert.equal(logged.args.dataHash, event.dataHash);

    // The new version holds the new values, and the event's dataSha256 is over exactly that data.
    const now = await version(dppId, first.body.version.number);
    const section = now.dpp[V1];
    assert.equal(section[CONDITION].batteryCondition.stateOfHealthPercent, 91.5);
    assert.equal(section[CONDITION].batteryCondition.negativeEvents.length, 2);
    assert.equal(sha256(section), event.dataSha256);
    // History: the version before still shows the state of health written at first.
    const earlier = await version(dppId, first.body.version.number - 1);
    assert.equal(earlier.dpp[V1][CONDITION].batteryCondition.stateOfHealthPercent, 98.6);
    // The content resource shows the merged data (everything else as written).
    const read = await call('GET', content(dppId));
    assert.equal(read.body.data[CONDITION].batteryCondition.stateOfHealthPercent, 91.5);
    assert.equal(read.body.data[CONDITION].batteryCondition.capacityFadePercent, 1.4);

    // The public EN 18222 reads show the battery's public fields, never its state of health (Annex XIII tier 4).
    for (const path of [
      `/v1/dpps/${encodeURIComponent(dppId)}`,
      `/v1/dpps/${encodeURIComponent(dppId)}/versions/${first.body.version.number}`,
    ]) {
      const shown = await stack.api.call('GET', path, { env: 'test' });
      assert.equal(shown.status, 200, shown.text);
      assert.ok(shown.text.includes('batteryStatus'), shown.text);
      assert.ok(!shown.text.includes('stateOfHealthPercent'), `${path} shows no state of health`);
      assert.ok(!shown.text.includes('Cell imbalance'), `${path} shows no use event`);
    }
    // The public digest is over the public cut, recomputable by anyone.
    const publicVersion = await version(dppId, first.body.version.number, null);
    assert.equal(sha256(publicVersion.dpp), first.body.version.publicSha256);
  });

  test('an update not following the pinned model is refused with each member named, nothing stored', async () => {
    const dppId = await mintBattery('04D1D2D3D4D502');
    const count = (await versions(dppId)).length;
    const refused = await call('POST', dynamic(dppId), {
      batteryStatus: 'broken',
      batteryCondition: { stateOfHealthPercent: 140, fullCycles: -1 },
      negativeEvents: [{ description: '' }],
      colour: 'red',
    });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.code, 'content_invalid');
    assert.equal(refused.body.contentSpecificationId, V1);
    assert.deepEqual(refused.body.errors.map((e: Json) => e.path).sort(), [
      '/batteryCondition/fullCycles',
      '/batteryCondition/measuredAt',
      '/batteryCondition/stateOfHealthPercent',
      '/batteryStatus',
      '/colour',
      '/negativeEvents/0/description',
      '/negativeEvents/0/occurredAt',
    ]);
    const empty = await call('POST', dynamic(dppId), {});
    assert.equal(empty.status, 400, empty.text);
    assert.deepEqual(
      empty.body.errors.map((e: Json) => e.path),
      ['/'],
    );
    assert.equal((await versions(dppId)).length, count);

    // Another company, unknown passports and unpinned ones.
    const foreign = await call('POST', dynamic(dppId), { batteryStatus: 'waste' }, stranger.testKey);
    assert.equal(foreign.status, 404, foreign.text);
    const unknown = await call('POST', dynamic('urn:uuid:00000000-0000-4000-8000-000000000000'), {
      batteryStatus: 'waste',
    });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal((await versions(dppId)).length, count);
  });

  test('concurrent updates of one passport queue: none lost, versions numbered one by one; a rewrite meanwhile is no deadlock', async () => {
    const dppId = await mintBattery('04D1D2D3D4D507');
    const before = (await versions(dppId)).length;
    const event = (n: number) => ({
      negativeEvents: [{ description: `Overheating ${n}`, occurredAt: `2026-11-24T0${n}:00:00Z` }],
    });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => call('POST', dynamic(dppId), event(n))));
    for (const answer of answers) assert.equal(answer.status, 201, answer.text);
    const numbers = answers.map((answer) => answer.body.version.number as number).sort((a, b) => a - b);
    assert.deepEqual(numbers, [before + 1, before + 2, before + 3, before + 4]);
    const events = (await call('GET', content(dppId))).body.data[CONDITION].batteryCondition.negativeEvents;
    assert.deepEqual(
      events
        .map((e: Json) => e.description)
        .filter((d: string) => d.startsWith('Overheating'))
        .sort(),
      ['Overheating 1', 'Overheating 2', 'Overheating 3', 'Overheating 4'],
    );
    // The brand's rewrite and updates at once: each waits for the other (same lock order), none fails.
    const mixed = await Promise.all([
      call('PUT', content(dppId), fullBatteryData()),
      call('POST', dynamic(dppId), event(5)),
      call('POST', dynamic(dppId), event(6)),
    ]);
    assert.deepEqual(
      mixed.map((answer) => answer.status),
      [200, 201, 201],
      mixed.map((answer) => answer.text).join('\n'),
    );
  });

  test('the status follows the battery’s life: repurposed, then waste, which is final', async () => {
    const dppId = await mintBattery('04D1D2D3D4D503');
    const repurposed = await call('POST', dynamic(dppId), { batteryStatus: 'repurposed' });
    assert.equal(repurposed.status, 201, repurposed.text);
    assert.deepEqual(repurposed.body.changedFields, ['/generalProductInformation/batteryStatus']);
    const back = await call('POST', dynamic(dppId), { batteryStatus: 'original' });
    assert.equal(back.status, 409, back.text);
    assert.equal(back.body.code, 'battery_status_final');
    const waste = await call('POST', dynamic(dppId), { batteryStatus: 'waste' });
    assert.equal(waste.status, 201, waste.text);
    const again = await call('POST', dynamic(dppId), { batteryStatus: 'repurposed' });
    assert.equal(again.status, 409, again.text);
    // The status is public (tier 1): the public read shows it.
    const shown = await stack.api.call('GET', `/v1/dpps/${encodeURIComponent(dppId)}`, { env: 'test' });
    assert.equal(shown.body[V1].generalProductInformation.batteryStatus, 'waste');
    // The verification page's timeline names the updates (not their values).
    const page = await stack.api.call(
      'GET',
      new URL(shown.body.uniqueProductIdentifier).pathname.replace('/test/01/', '/test/verify/01/'),
      { env: null, headers: { accept: 'text/html' } },
    );
    assert.equal(page.status, 200, page.text.slice(0, 300));
    assert.ok(page.text.includes('Product data updated'), 'timeline label');
    await Promise.all([repurposed, waste].map((r) => anchored(r.body.event.id)));
  });

  test('a granted repairer updates state of health: a version, anchored; the public view does not show it, the authority’s does', async () => {
    const dppId = await mintBattery('04D1D2D3D4D504');
    const update = {
      batteryCondition: {
        measuredAt: '2026-11-24T12:30:00Z',
        stateOfHealthPercent: 83.25,
        stateOfChargePercent: 40,
        fullCycles: 911,
      },
    };
    // Before the grant counts for nothing else: a company without the repairer role may not write.
    const refused = await call('POST', dynamic(dppId), update, stranger.testKey);
    assert.equal(refused.status, 404, refused.text);
    const written = await call('POST', dynamic(dppId), update, repairer.testKey, {
      'idempotency-key': 'repairer-soh-1',
    });
    assert.equal(written.status, 201, written.text);
    assert.equal(written.body.writerRole, 'repairer');
    await anchored(written.body.event.id);
    // The repairer follows its update to the chain; the brand sees it too; a stranger does not.
    const followed = await call(
      'GET',
      `${dynamic(dppId)}/${written.body.event.id}`,
      undefined,
      repairer.testKey,
    );
    assert.equal(followed.status, 200, followed.text);
    assert.match(followed.body.event.transactionHash, /^0x[0-9a-f]{64}$/);
    const receipt = await stack.chain.chain.provider.getTransactionReceipt(
      followed.body.event.transactionHash,
    );
    assert.equal(receipt?.status, 1);
    assert.equal((await call('GET', `${dynamic(dppId)}/${written.body.event.id}`)).status, 200);
    const hidden = await call(
      'GET',
      `${dynamic(dppId)}/${written.body.event.id}`,
      undefined,
      stranger.testKey,
    );
    assert.equal(hidden.status, 404, hidden.text);
    // The brand's event names who wrote it.
    const event = await call('GET', `/v1/iaas/events/${written.body.event.id}`);
    assert.equal(event.status, 200, event.text);
    assert.equal(event.body.event.actor, 'Second Life Storage');
    assert.equal(event.body.event.metadata.writerRole, 'repairer');

    const path = `/v1/dpps/${encodeURIComponent(dppId)}`;
    const anonymous = await stack.api.call('GET', path, { env: 'test' });
    assert.equal(anonymous.status, 200, anonymous.text);
    assert.ok(!anonymous.text.includes('stateOfHealthPercent'), anonymous.text);
    const asAuthority = await stack.api.call('GET', path, { env: 'test', key: authority.testKey });
    assert.equal(asAuthority.status, 200, asAuthority.text);
    assert.equal(asAuthority.body[V1][CONDITION].batteryCondition.stateOfHealthPercent, 83.25);
    // The authority also reads the earlier value in the version before.
    const before = await stack.api.call('GET', `${path}/versions/${written.body.version.number - 1}`, {
      env: 'test',
      key: authority.testKey,
    });
    assert.equal(before.body.dpp[V1][CONDITION].batteryCondition.stateOfHealthPercent, 98.6);
  });

  test('a repurposed battery gets a new passport linked to the original, both ways', async () => {
    const original = await mintBattery('04D1D2D3D4D505');
    // The repurposer (granted repairer by the brand) mints the new battery's passport and writes its data.
    const tokenId = await enrollAndMint(
      (m, p, b) => stack.api.call(m, p, { key: repairer.testKey, ...(b === undefined ? {} : { body: b }) }),
      '04D1D2D3D4D506',
      { manufacturer_name: 'Second Life Storage' },
    );
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    const successor = view.body.dppHeader.digitalProductPassportId as string;
    const successorData = fullBatteryData();
    successorData.generalProductInformation.operatorIdentifier = 'DE555000111';
    const put = await call('PUT', content(successor), successorData, repairer.testKey);
    assert.equal(put.status, 201, put.text);

    const repurpose = `${content(original)}/repurpose`;
    // Someone else's passport cannot be made the successor, nor can a stranger link.
    const notYours = await call('POST', repurpose, { successorDppId: successor }, brand.testKey);
    assert.equal(notYours.status, 404, notYours.text);
    assert.equal(notYours.body.code, 'successor_not_found');
    const stranger1 = await call('POST', repurpose, { successorDppId: successor }, stranger.testKey);
    assert.equal(stranger1.status, 404, stranger1.text);

    const linked = await call('POST', repurpose, { successorDppId: successor }, repairer.testKey, {
      'idempotency-key': 'repurpose-1',
    });
    assert.equal(linked.status, 201, linked.text);
    assert.equal(linked.body.relation, 'repurposed');
    const again = await call('POST', repurpose, { successorDppId: successor }, repairer.testKey);
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'passports_already_linked');
    await Promise.all([linked.body.original.event.id, linked.body.successor.event.id].map(anchored));

    const read = async (dppId: string) => {
      const shown = await stack.api.call('GET', `/v1/dpps/${encodeURIComponent(dppId)}`, { env: 'test' });
      assert.equal(shown.status, 200, shown.text);
      return shown.body;
    };
    const [was, now] = [await read(original), await read(successor)];
    const PRODUCT = 'urn:dpp-service:content-specification:product:1.0';
    assert.equal(was[V1].generalProductInformation.batteryStatus, 'repurposed');
    assert.equal(now[V1].generalProductInformation.batteryStatus, 'repurposed');
    assert.deepEqual(
      was[PRODUCT].relatedPassports.map((r: Json) => [r.relation, r.digitalProductPassportId]),
      [['repurposedAs', successor]],
    );
    assert.deepEqual(
      now[PRODUCT].relatedPassports.map((r: Json) => [r.relation, r.digitalProductPassportId]),
      [['repurposedFrom', original]],
    );
    assert.equal(now[PRODUCT].relatedPassports[0].uniqueProductIdentifier, was.uniqueProductIdentifier);
    // Both GS1 linksets link the other passport (IANA predecessor-version / successor-version).
    const linkset = async (upi: string) => {
      const answer = await stack.api.call('GET', `${new URL(upi).pathname}?linkType=linkset`, { env: null });
      assert.equal(answer.status, 200, answer.text);
      return answer.body.linkset[0];
    };
    assert.deepEqual(
      (await linkset(was.uniqueProductIdentifier))['successor-version'].map((t: Json) => t.href),
      [now.uniqueProductIdentifier],
    );
    assert.deepEqual(
      (await linkset(now.uniqueProductIdentifier))['predecessor-version'].map((t: Json) => t.href),
      [was.uniqueProductIdentifier],
    );
    // Each side's version is the one the link made.
    assert.equal(linked.body.original.version.number, (await versions(original)).length);
  });
});
