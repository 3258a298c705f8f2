import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { allRoutes } from '../../api/routes/index.ts';
import { StripeGateway } from '../../src/adapters/payments/stripe-gateway.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import type { CallResult, TestTenant } from '../support/api.ts';
import { BATTERY_DATA, contentPath } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { type Receiver, startReceiver, waitUntil } from '../webhooks/support.ts';
import { SWEEP as LISTED } from './fixtures/tenant-sweep.ts';
import { BRANDING_SWEEP } from './fixtures/tenant-sweep-branding.ts';
import { OVERVIEW_AND_PLANS } from './fixtures/tenant-sweep-console.ts';
import { type ForeignWithLog, REQUEST_LOG_SWEEP } from './fixtures/tenant-sweep-logs.ts';
import { SIGNAL_SWEEP } from './fixtures/tenant-sweep-signals.ts';

/** tenant-sweep.ts is at the 400-line limit: newer classifications live beside it. */
const SWEEP = { ...LISTED, ...OVERVIEW_AND_PLANS, ...REQUEST_LOG_SWEEP, ...BRANDING_SWEEP, ...SIGNAL_SWEEP };

describe('tenant isolation: every operation with another tenant’s ids, and with the other environment', () => {
  let stack: TestStack;
  let a: TestTenant;
  let b: TestTenant;
  let receiver: Receiver;
  let foreign: ForeignWithLog;
  const as = (
    tenant: TestTenant,
    environment: 'test' | 'live',
    method: string,
    path: string,
    body?: unknown,
  ) =>
    stack.api.call(method, path, {
      key: environment === 'test' ? tenant.testKey : tenant.liveKey,
      env: environment,
      ...(body === undefined ? {} : { body }),
    });
  const heardOfEnrollment = (row: Record<string, unknown>) =>
    row.type === 'chip_enrolled_elsewhere' || row.event_type === 'asset.suspicious_activity';
  /** Everything B owns, row by row, in every table that carries a company: what a side effect would change. */
  const worldOf = async (tenant: TestTenant) => {
    const tables = await stack.api.db.orm.em.fork().execute<{ table_name: string }[]>(
      `select table_name from information_schema.columns where column_name = 'company_id'
         and table_schema = 'public' order by table_name`,
    );
    const world: Record<string, unknown[]> = {};
    // B's requests in the other environment are B's own and go to its request log: that is the log, not a
    // side effect.
    for (const { table_name } of tables.filter((t) => t.table_name !== 'request_logs')) {
      const rows = await stack.api.db.orm.em
        .fork()
        .execute<Record<string, unknown>[]>(`select * from ${table_name} where company_id = ? order by 1`, [
          tenant.companyId,
        ]);
      // B's own requests in the other environment use B's key there: its last use moves, nothing else may.
      // A's enrolling B's chip UID (409) tells B that another account tried (docs/signals.md): by design.
      world[table_name] = rows
        .filter((row) => !heardOfEnrollment(row))
        .map(({ last_used_at: _used, ...row }) => row);
    }
    return world;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    a = await stack.api.createTenant('Alpha');
    b = await stack.api.createTenant('Beta');
    receiver = await startReceiver();
    const asB = (method: string, path: string, body?: unknown): Promise<CallResult> =>
      as(b, 'test', method, path, body);
    const endpoint = await asB('POST', '/v1/webhooks/endpoints', { url: receiver.url });
    const tokenId = await enrollAndMint(asB, '04B0B0B0B0B002');
    assert.equal((await asB('POST', '/v1/dpp/enroll', { chipUid: '04B0B0B0B0B001' })).status, 201);
    const event = await asB('POST', '/v1/iaas/log-event', {
      tokenId,
      action: 'SHIPPED',
      locationName: 'Dock',
      latitude: 53.5,
      longitude: 9.9,
      metadata: {},
    });
    await receiver.waitFor(3);
    const deliveries = await asB('GET', `/v1/webhooks/endpoints/${endpoint.body.endpoint.id}/deliveries`);
    const oauthClient = await asB('POST', '/v1/auth/oauth/clients', { name: 'B ERP' });
    assert.equal((await asB('POST', '/v1/auth/sso/domains', { domain: 'beta.example' })).status, 201);
    const toolbox = await asB('POST', '/v1/factory/toolbox-keys', {
      name: 'Line',
      publicKey: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
    });
    const twin = await asB('POST', '/v1/erp/provision', { gtin: GTIN, metadata: { name: 'Twin' } });
    const apiKey = await asB('POST', '/v1/auth/api-keys', { name: 'Second' });
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    const dppId = view.body.dppHeader.digitalProductPassportId;
    assert.equal((await asB('PUT', contentPath(dppId), BATTERY_DATA)).status, 201);
    const grant = await asB('POST', '/v1/disclosure-grants', {
      granteeCompanyId: a.companyId,
      role: 'recycler',
    });
    // An offer of B's passport to a third company: A is neither party.
    const gamma = await stack.api.createTenant('Gamma');
    const offer = await asB('POST', `/v1/dpps/${encodeURIComponent(dppId)}/transfers`, {
      toCompanyId: gamma.companyId,
    });
    assert.equal(offer.status, 201, offer.text);
    foreign = {
      apiKeyId: apiKey.body.apiKey.id,
      chipUid: '04B0B0B0B0B001',
      mintedChip: '04B0B0B0B0B002',
      tokenId,
      eventId: String(event.body.eventId),
      endpointId: endpoint.body.endpoint.id,
      deliveryId: deliveries.body.deliveries[0].id,
      deliveryEventId: deliveries.body.deliveries[0].eventId,
      toolboxKeyId: toolbox.body.data.id,
      oauthClientId: oauthClient.body.client.id,
      ssoDomain: 'beta.example',
      twinId: twin.body.service_internal_id,
      dppId,
      grantId: grant.body.grant.id,
      transferId: offer.body.transfer.id,
      requestLogId: '',
    };
    await waitUntil(
      async () => {
        const logged = await asB('GET', '/v1/request-logs?limit=1');
        foreign.requestLogId = logged.body.requestLogs?.[0]?.id ?? '';
        return foreign.requestLogId !== '';
      },
      10_000,
      'B’s requests in its request log',
    );
    for (const [name, value] of Object.entries(foreign)) assert.ok(value, `set up ${name}`);
    // Quiet before the snapshot: B's anchoring and deliveries are done.
    await waitUntil(
      async () =>
        (
          await stack.api.db.orm.em
            .fork()
            .execute(`select 1 from supply_chain_events where company_id = ? and transaction_hash is null`, [
              b.companyId,
            ])
        ).length === 0,
      30_000,
      'B’s events anchored (the logged one, the battery data write’s PRODUCT_DATA_UPDATED)',
    );
    await waitUntil(
      async () => {
        const [row] = await stack.api.db.orm.em.fork().execute<{ unsettled: string }[]>(
          `select (select count(*) from outbox_events where company_id = ? and dispatched_at is null)
                + (select count(*) from webhook_deliveries where company_id = ? and status = 'pending') as unsettled`,
          [b.companyId, b.companyId],
        );
        return Number(row!.unsettled) === 0;
      },
      30_000,
      'B’s events dispatched and delivered',
    );
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  test('every operation a tenant credential reaches is in the sweep table', () => {
    const config = stack.api.config;
    const routes = allRoutes({
      config,
      orm: stack.api.db.orm,
      secretBox: new SecretBox(undefined),
      readiness: {},
      workflows: undefined,
      payments: new StripeGateway(config.payments),
    });
    const operations = routes
      .filter((r) => r.auth !== 'none')
      .map((r) => `${r.method.toUpperCase()} ${r.path}`);
    assert.deepEqual(
      operations.filter((op) => !(op in SWEEP)),
      [],
      'classify each new operation in SWEEP (how to aim it at another tenant, or why it takes no ids)',
    );
    assert.deepEqual(
      Object.keys(SWEEP).filter((op) => !operations.includes(op)),
      [],
      'SWEEP names operations that no longer exist',
    );
  });

  test('another tenant’s ids, or the same tenant in the other environment: refused, no data, no side effect', async () => {
    const before = await worldOf(b);
    for (const [operation, entry] of Object.entries(SWEEP)) {
      if ('noForeignIds' in entry) continue;
      const { method, path, body } = entry.attempt(foreign);
      for (const [who, tenant, environment] of [
        ['another tenant', a, 'test'],
        ['the other environment', b, 'live'],
        ['another tenant in the other environment', a, 'live'],
      ] as const) {
        if (environment === 'live' && entry.ownWorldElsewhere) continue;
        if (tenant === b && entry.companyWide) continue;
        const answer = await as(tenant, environment, method, path, body);
        const refused = entry.refused.includes(answer.status) || answer.status === 404;
        assert.ok(refused, `${operation} as ${who}: ${answer.status} ${answer.text.slice(0, 300)}`);
        assert.equal(
          answer.headers.get('content-type'),
          'application/problem+json',
          `${operation}: a problem, no data`,
        );
      }
    }
    assert.deepEqual(await worldOf(b), before, 'nothing of B changed');
  });
});
