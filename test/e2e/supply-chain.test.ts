import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { Interface, type JsonFragment, keccak256, toBeHex, toUtf8Bytes } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import type { TestTenant } from '../support/api.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_DOC, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const EMAIL = 'jane.doe@logistics.example.com';
const MASKED = 'j***@l***.com';

// Canonical JSON as a client would write it: keys sorted at every level, no whitespace.
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
}

const ANCHORED = [
  'id',
  'tokenId',
  'action',
  'actor',
  'actorEmail',
  'locationName',
  'latitude',
  'longitude',
  'metadata',
  'timestamp',
];
const pick = (event: Record<string, unknown>, fields: string[]) =>
  Object.fromEntries(fields.map((f) => [f, event[f]]));

describe('supply-chain events end to end (log → anchor on chain → webhook outbox → chain of custody)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let tokenId: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const sql = (query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.getConnection().execute(query, params);
  const anchored = (eventId: number) =>
    stack.temporal.client.workflow.getHandle(`anchor-event:test:${eventId}`).result();
  const event = (action: string, extra: Record<string, unknown> = {}) => ({
    tokenId,
    action,
    locationName: 'Port of Hamburg',
    latitude: 53.546,
    longitude: 9.9661,
    metadata: { temperature_celsius: 4.5, container: { id: 'MSCU1234567' } },
    actorEmail: EMAIL,
    ...extra,
  });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    const uid = '04C1C2C3C4C501';
    await call('POST', '/v1/dpp/enroll', { chipUid: uid });
    const minted = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({ chipUid: uid, custom_dpp_data: { gtin: GTIN, conformity_url: CONFORMITY_DOC } }),
    );
    assert.equal(minted.status, 201, minted.text);
    tokenId = minted.body.blockchain.tokenId;
  });
  afterAll(() => stack.close());

  test('three events are stored at once, anchored on chain once each, announced with the spec fields', async () => {
    const ids: number[] = [];
    for (const action of ['SHIPPED', 'CUSTOMS_CLEARED', 'DELIVERED']) {
      const logged = await call('POST', '/v1/iaas/log-event', event(action));
      assert.equal(logged.status, 201, logged.text);
      assert.equal(logged.body.success, true);
      assert.equal(typeof logged.body.eventId, 'number');
      assert.equal(typeof logged.body.message, 'string');
      assert.equal(logged.headers.get('location'), `/v1/iaas/events/${logged.body.eventId}`);
      ids.push(logged.body.eventId);
    }
    await Promise.all(ids.map(anchored));

    const contract = new Interface(stack.chain.chain.artifact.abi as JsonFragment[]);
    const fragment = contract.getEvent('SupplyChainEvent')!;
    const logs = await stack.chain.chain.provider.getLogs({
      address: stack.chain.contractAddress,
      fromBlock: 0,
      toBlock: 'latest',
      topics: [fragment.topicHash, toBeHex(BigInt(tokenId), 32)],
    });
    assert.equal(logs.length, 3, 'one SupplyChainEvent log per event');

    for (const [index, id] of ids.entries()) {
      const { body } = await call('GET', `/v1/iaas/events/${id}`);
      const shown = body.event;
      assert.equal(shown.action, ['SHIPPED', 'CUSTOMS_CLEARED', 'DELIVERED'][index]);
      assert.equal(shown.actor, 'Acme Apparel');
      assert.equal(shown.actorEmail, MASKED);
      assert.equal(shown.latitude, 53.546);
      assert.equal(shown.contractAddress, stack.chain.contractAddress);
      assert.equal(shown.environment, 'test');
      // The hash on chain is recomputable from the event as the API shows it.
      const dataHash = keccak256(toUtf8Bytes(sortedJson(pick(shown, ANCHORED))));
      assert.equal(shown.dataHash, dataHash);
      const log = logs.find((l) => l.transactionHash === shown.transactionHash);
      assert.ok(log, `log of ${shown.action}`);
      assert.equal(log.blockNumber, shown.blockNumber);
      const parsed = contract.parseLog({ topics: [...log.topics], data: log.data })!;
      assert.equal(parsed.args.action, shown.action);
      assert.equal(parsed.args.dataHash, dataHash);
    }

    const outbox = await sql(
      `select event_type, data, occurred_at from outbox_events where data->>'tokenId' = ? and event_type <> 'asset.minted' order by occurred_at`,
      [tokenId],
    );
    assert.deepEqual(
      outbox.map((row) => row.event_type),
      ['asset.shipped', 'asset.customs_cleared', 'asset.delivered'],
    );
    for (const row of outbox) {
      const [shown] = (await sql('select transaction_hash from supply_chain_events where id = ?', [
        ids[outbox.indexOf(row)],
      ])) as { transaction_hash: string }[];
      const action =
        row.event_type === 'asset.customs_cleared'
          ? 'CUSTOMS_CLEARED'
          : row.event_type.slice(6).toUpperCase();
      assert.deepEqual(row.data, {
        tokenId,
        action,
        loggedAction: action,
        actor: 'Acme Apparel',
        locationName: 'Port of Hamburg',
        latitude: 53.546,
        longitude: 9.9661,
        transactionHash: shown!.transaction_hash,
      });
    }
    const [stored] = await sql('select actor_email from supply_chain_events where id = ?', [ids[0]]);
    assert.equal(stored!.actor_email, EMAIL, 'stored in clear for the company, masked in every output');
  });

  test('a retry after a crash finds the logged event on chain instead of logging it twice', async () => {
    const logged = await call('POST', '/v1/iaas/log-event', event('QC_PASSED', { actorEmail: undefined }));
    assert.equal(logged.status, 201, logged.text);
    const first = (await anchored(logged.body.eventId)) as { transactionHash: string; blockNumber: number };
    // As if the worker had crashed after sending but before recording the anchor.
    await sql('update supply_chain_events set transaction_hash = null, block_number = null where id = ?', [
      logged.body.eventId,
    ]);
    const activities = createActivities(stack.deps);
    const again = (await new MockActivityEnvironment().run(activities.logEventOnChain, {
      scope: { companyId: tenant.companyId, environment: 'test' as const },
      eventId: logged.body.eventId,
    })) as { transactionHash: string };
    assert.equal(again.transactionHash, first.transactionHash);
    await new MockActivityEnvironment().run(activities.recordEventAnchor, {
      scope: { companyId: tenant.companyId, environment: 'test' as const },
      eventId: logged.body.eventId,
      transactionHash: again.transactionHash,
      blockNumber: first.blockNumber,
    });
    const restarted = await call('POST', `/v1/iaas/events/${logged.body.eventId}/anchor`);
    assert.equal(restarted.status, 200, 'an anchored event is not anchored again');
    assert.equal(restarted.body.event.transactionHash, first.transactionHash);
    assert.equal((await call('POST', '/v1/iaas/events/999999/anchor')).status, 404);
    const [outbox] = await sql(
      `select count(*)::int as n from outbox_events where data->>'action' = 'QC_PASSED'`,
    );
    assert.equal(outbox!.n, 0, 'QC_PASSED has no webhook');
  });

  test('validation: ranges, unknown action, oversized metadata, unknown or foreign token, recycled token', async () => {
    const count = async () =>
      ((await sql('select count(*)::int as n from supply_chain_events')) as { n: number }[])[0]!.n;
    const before = await count();
    const bad = await call('POST', '/v1/iaas/log-event', event('SHIPPED', { latitude: 91, longitude: -181 }));
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors.map((e: { path: string }) => e.path).sort(), [
      'body.latitude',
      'body.longitude',
    ]);
    for (const action of ['TELEPORTED', 'MINT', 'RECYCLE_TRANSFER']) {
      const refused = await call('POST', '/v1/iaas/log-event', event(action));
      assert.equal(refused.status, 400, action);
      assert.equal(refused.body.errors[0].path, 'body.action');
    }
    const big = await call(
      'POST',
      '/v1/iaas/log-event',
      event('SHIPPED', { metadata: { blob: 'x'.repeat(9000) } }),
    );
    assert.equal(big.status, 400);
    assert.equal(big.body.errors[0].path, 'body.metadata');
    const deep = await call(
      'POST',
      '/v1/iaas/log-event',
      event('SHIPPED', { metadata: { a: { b: { c: {} } } } }),
    );
    assert.equal(deep.status, 400);
    const email = await call('POST', '/v1/iaas/log-event', event('SHIPPED', { actorEmail: 'not-an-email' }));
    assert.equal(email.status, 400);

    const unknown = await call('POST', '/v1/iaas/log-event', event('SHIPPED', { tokenId: '999999' }));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'token_not_found');
    const other = await stack.api.createTenant('Other Brand');
    const foreign = await stack.api.call('POST', '/v1/iaas/log-event', {
      key: other.testKey,
      body: event('SHIPPED'),
    });
    assert.equal(foreign.status, 404);
    assert.equal(
      (await stack.api.call('GET', `/v1/iaas/custody/${tokenId}`, { key: other.testKey })).status,
      404,
    );

    await sql(`update passports set status = 'RECYCLED' where token_id = ?`, [tokenId]);
    try {
      const recycled = await call('POST', '/v1/iaas/log-event', event('SOLD'));
      assert.equal(recycled.status, 409);
      assert.equal(recycled.body.code, 'token_recycled');
    } finally {
      await sql(`update passports set status = 'ACTIVE' where token_id = ?`, [tokenId]);
    }
    assert.equal(await count(), before, 'refused requests store nothing');
  });

  test('events list (paged, masked) and chain of custody with a recomputable integrity hash', async () => {
    const first = await call('GET', `/v1/iaas/events?tokenId=${tokenId}&limit=2`);
    assert.equal(first.status, 200);
    assert.equal(first.body.events.length, 2);
    assert.ok(first.body.nextCursor);
    const rest = await call('GET', `/v1/iaas/events?tokenId=${tokenId}&after=${first.body.nextCursor}`);
    const listed = [...first.body.events, ...rest.body.events];
    assert.deepEqual(
      listed.map((e: { action: string }) => e.action),
      ['MINT', 'SHIPPED', 'CUSTOMS_CLEARED', 'DELIVERED', 'QC_PASSED'],
    );
    assert.ok(!JSON.stringify(listed).includes(EMAIL));

    const custody = await call('GET', `/v1/iaas/custody/${tokenId}`);
    assert.equal(custody.status, 200);
    assert.deepEqual(custody.body.events, listed);
    assert.ok(!custody.text.includes(EMAIL));
    let h = Buffer.alloc(32);
    for (const e of listed) {
      const line = sortedJson(pick(e, [...ANCHORED, 'transactionHash']));
      h = createHash('sha256').update(h).update(line).digest();
    }
    assert.deepEqual(custody.body.chainOfCustody, {
      totalEvents: 5,
      firstSeen: listed[0].timestamp,
      lastSeen: listed[4].timestamp,
      integrityHash: `0x${h.toString('hex')}`,
    });
    assert.equal((await call('GET', '/v1/iaas/custody/424242')).status, 404);
    assert.equal((await call('GET', '/v1/iaas/events/999999')).status, 404);
  });

  test('an Idempotency-Key makes a retried log-event safe: one event, one anchor, the same answer', async () => {
    const keyed = (body: unknown, key: string) =>
      stack.api.call('POST', '/v1/iaas/log-event', {
        key: tenant.testKey,
        body,
        headers: { 'idempotency-key': key },
      });
    const body = event('QC_PASSED', { metadata: { batch: 'retry-1' } });
    const first = await keyed(body, 'erp-job-7:line-12');
    assert.equal(first.status, 201, first.text);
    const retried = await keyed(body, 'erp-job-7:line-12');
    assert.equal(retried.status, 201);
    assert.equal(retried.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retried.body, first.body);
    assert.equal(retried.headers.get('location'), `/v1/iaas/events/${first.body.eventId}`);
    const rows = await sql(
      `select count(*)::int as n from supply_chain_events where metadata->>'batch' = 'retry-1'`,
    );
    assert.equal(rows[0]!.n, 1, 'the retry stored nothing');
    await anchored(first.body.eventId);

    const reused = await keyed(event('QC_PASSED', { metadata: { batch: 'other' } }), 'erp-job-7:line-12');
    assert.equal(reused.status, 422);
    assert.equal(reused.body.code, 'idempotency_key_reused');
  });
});
