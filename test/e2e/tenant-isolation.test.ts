import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { allRoutes } from '../../api/routes/index.ts';
import { StripeGateway } from '../../src/adapters/payments/stripe-gateway.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { FACTORY_DEFAULT_KEY, generateSun } from '../../src/standards/sun/index.ts';
import { fullBatteryData } from '../fixtures/battery-passport-data.ts';
import type { CallResult, TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { type Receiver, startReceiver, waitUntil } from '../webhooks/support.ts';

/** What tenant B owns (in the test environment) that tenant A will try to reach. */
interface Foreign {
  apiKeyId: string;
  chipUid: string;
  mintedChip: string;
  tokenId: string;
  eventId: string;
  endpointId: string;
  deliveryId: string;
  deliveryEventId: string;
  toolboxKeyId: string;
  oauthClientId: string;
  ssoDomain: string;
  twinId: string;
  /** The passport's digitalProductPassportId (its battery data written). */
  dppId: string;
  /** A disclosure grant of B's (to A, recycler). */
  grantId: string;
}

type Attempt = (ids: Foreign) => { method: string; path: string; body?: unknown };
/**
 * How a request with another tenant's ids must be refused: 404, or 409 where hardware identity is unique
 * across tenants. `ownWorldElsewhere`: in the other environment the same request acts on that environment's own
 * world (live and test are separate, and a chip UID may be enrolled in each), so it is not refused there.
 * `companyWide`: the resource is the company's in both environments, so only other companies are refused.
 */
type Entry =
  | { attempt: Attempt; refused: number[]; ownWorldElsewhere?: true; companyWide?: true }
  | { noForeignIds: string };

const notFound = [404];
const batteryContentPath = (dppId: string) =>
  `/v1/dpps/${encodeURIComponent(dppId)}/content/${encodeURIComponent('urn:dpp-service:spec:battery:1.0.0')}`;
const keys = { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY };

/**
 * Every operation a tenant credential reaches, keyed as `METHOD path`: how to aim it at another tenant's
 * resources, or why it takes no ids. A route missing here fails the sweep, so a new one must be classified.
 */
const SWEEP: Record<string, Entry> = {
  'GET /v1/auth/api-keys': { noForeignIds: 'lists the caller’s keys only (checked by the world snapshot)' },
  'GET /v1/auth/wallet': { noForeignIds: 'the caller’s own wallet, from their token' },
  'GET /v1/console/session': { noForeignIds: 'the signed-in user’s own session' },
  'DELETE /v1/console/session': { noForeignIds: 'ends the caller’s own console session' },
  'DELETE /v1/console/sessions': { noForeignIds: 'ends the caller’s own console sessions' },
  'GET /v1/team/members': { noForeignIds: 'the signed-in person’s own company' },
  'POST /v1/team/invitations': { noForeignIds: 'creates a person in the signed-in owner’s own company' },
  'PATCH /v1/team/members/:id': {
    noForeignIds:
      'people only (no API key reaches it); another company’s member → 404 in test/e2e/team.test.ts',
  },
  'DELETE /v1/team/members/:id': {
    noForeignIds:
      'people only (no API key reaches it); another company’s member → 404 in test/e2e/team.test.ts',
  },
  'POST /v1/auth/passkey/register/challenge': { noForeignIds: 'for the signed-in user’s own e-mail only' },
  'POST /v1/auth/passkey/register/verify': { noForeignIds: 'answers the signed-in user’s own challenge' },
  'GET /v1/auth/passkeys': { noForeignIds: 'the signed-in person’s own passkeys' },
  'DELETE /v1/auth/passkeys/:id': {
    noForeignIds:
      'people only (no API key reaches it); another person’s passkey → 404 in test/e2e/console-account.test.ts',
  },
  'GET /v1/auth/sso': { noForeignIds: 'the caller’s own company’s domains and provider' },
  'POST /v1/auth/oauth/clients': { noForeignIds: 'creates a client for the caller' },
  'POST /v1/auth/sso/domains': {
    noForeignIds: 'claims for the caller (a domain another company holds → 409)',
  },
  'POST /v1/auth/sso/domains/:domain/verify': {
    // SSO domains are the company's in both environments (its people log in to either).
    attempt: (f) => ({ method: 'POST', path: `/v1/auth/sso/domains/${f.ssoDomain}/verify` }),
    refused: notFound,
    companyWide: true,
  },
  'PUT /v1/auth/sso/oidc': { noForeignIds: 'the caller’s own provider' },
  'PUT /v1/auth/sso/saml': { noForeignIds: 'the caller’s own provider' },
  'POST /v1/billing/checkout': { noForeignIds: 'the caller’s own subscription' },
  'POST /v1/billing/portal': { noForeignIds: 'the caller’s own Stripe customer' },
  'GET /v1/billing/status': { noForeignIds: 'the caller’s own subscription' },
  'GET /v1/company/settings': { noForeignIds: 'the caller’s own settings in its environment' },
  'PATCH /v1/company/settings': { noForeignIds: 'the caller’s own settings in its environment' },
  'GET /v1/billing/usage': { noForeignIds: 'the caller’s own mints' },
  'GET /v1/kyb/status': { noForeignIds: 'the caller’s own Connect account' },
  'POST /v1/kyb/submit': { noForeignIds: 'the caller’s own Connect account' },
  'POST /v1/kyb/upload-document': { noForeignIds: 'to the caller’s own Connect account' },
  'GET /v1/kyc/status': { noForeignIds: 'the calling person’s own Connect account' },
  'POST /v1/kyc/submit': { noForeignIds: 'the calling person’s own Connect account' },
  'POST /v1/kyc/upload-document': { noForeignIds: 'to the calling person’s own Connect account' },
  'GET /v1/auth/oauth/clients': { noForeignIds: 'lists the caller’s clients only' },
  'DELETE /v1/auth/oauth/clients/:id': {
    attempt: (f) => ({ method: 'DELETE', path: `/v1/auth/oauth/clients/${f.oauthClientId}` }),
    refused: notFound,
  },
  'POST /v1/dpp/claim': {
    noForeignIds: 'a buyer’s claim: resales are found by the caller’s own wallet (test/e2e/resale.test.ts)',
  },
  'POST /v1/auth/api-keys': { noForeignIds: 'creates a key for the caller' },
  'GET /v1/auth/api-keys/:id': {
    attempt: (f) => ({ method: 'GET', path: `/v1/auth/api-keys/${f.apiKeyId}` }),
    refused: notFound,
  },
  'DELETE /v1/auth/api-keys/:id': {
    attempt: (f) => ({ method: 'DELETE', path: `/v1/auth/api-keys/${f.apiKeyId}` }),
    refused: notFound,
  },
  'PUT /v1/dpps/:dppId/content/:specId': {
    attempt: (f) => ({ method: 'PUT', path: batteryContentPath(f.dppId), body: fullBatteryData() }),
    refused: notFound,
  },
  'POST /v1/disclosure-grants': {
    noForeignIds: 'grants a role over the caller’s own passports (the grantee is another company by design)',
  },
  'GET /v1/disclosure-grants': {
    noForeignIds: 'lists the caller’s own grants (test/e2e/disclosure.test.ts)',
  },
  'GET /v1/disclosure-grants/received': {
    noForeignIds: 'lists the grants made to the caller’s own company (test/e2e/disclosure.test.ts)',
  },
  'DELETE /v1/disclosure-grants/:id': {
    attempt: (f) => ({ method: 'DELETE', path: `/v1/disclosure-grants/${f.grantId}` }),
    refused: notFound,
  },
  'POST /v1/dpps/:dppId/content/:specId/dynamic': {
    // Only the brand and companies it granted `repairer` write dynamic data; anyone else: as if absent.
    attempt: (f) => ({
      method: 'POST',
      path: `${batteryContentPath(f.dppId)}/dynamic`,
      body: { batteryStatus: 'waste' },
    }),
    refused: notFound,
  },
  'GET /v1/dpps/:dppId/content/:specId/dynamic/:eventId': {
    attempt: (f) => ({ method: 'GET', path: `${batteryContentPath(f.dppId)}/dynamic/1` }),
    refused: notFound,
  },
  'POST /v1/dpps/:dppId/content/:specId/repurpose': {
    attempt: (f) => ({
      method: 'POST',
      path: `${batteryContentPath(f.dppId)}/repurpose`,
      body: { successorDppId: f.dppId },
    }),
    refused: notFound,
  },
  'POST /v1/dpp/enroll': {
    // Chip UIDs are hardware: the uniqueness rule answers 409 without saying whose the chip is.
    attempt: (f) => ({ method: 'POST', path: '/v1/dpp/enroll', body: { chipUid: f.chipUid } }),
    refused: [409],
    ownWorldElsewhere: true,
  },
  'POST /v1/dpp/verify-chip': {
    attempt: (f) => {
      const tap = generateSun({ uid: f.chipUid, counter: 50, keys });
      return {
        method: 'POST',
        path: '/v1/dpp/verify-chip',
        body: { chipUid: f.chipUid, piccData: tap.piccData, cmac: tap.cmac },
      };
    },
    refused: notFound,
  },
  'POST /v1/dpp/mint': {
    attempt: (f) => {
      const tap = generateSun({ uid: f.chipUid, counter: 51, keys });
      return {
        method: 'POST',
        path: '/v1/dpp/mint',
        body: {
          name: 'Foreign',
          chipUid: f.chipUid,
          nfcData: `picc_data=${tap.piccData}&cmac=${tap.cmac}`,
          custom_dpp_data: { conformity_url: 'https://a.example/doc.pdf' },
        },
      };
    },
    refused: [409],
    ownWorldElsewhere: true,
  },
  'GET /v1/dpp/mint/:chipUid': {
    attempt: (f) => ({ method: 'GET', path: `/v1/dpp/mint/${f.mintedChip}` }),
    refused: notFound,
  },
  'GET /v1/dpp/inventory': { noForeignIds: 'lists the caller’s chips only (checked by the world snapshot)' },
  'GET /v1/dpp/passports': {
    noForeignIds: 'searches the caller’s passports only (another company’s token id finds nothing)',
  },
  'GET /v1/dpp/mints': {
    noForeignIds: 'lists the caller’s running mints only (by the company and environment search attributes)',
  },
  'GET /v1/dpp/passports/:tokenId': {
    attempt: (f) => ({ method: 'GET', path: `/v1/dpp/passports/${f.tokenId}` }),
    refused: notFound,
  },
  'POST /v1/dpp/release': {
    attempt: (f) => ({
      method: 'POST',
      path: '/v1/dpp/release',
      body: { tokenId: f.tokenId, price: { amount: 1000, currency: 'eur' }, buyerEmail: 'a@example.com' },
    }),
    refused: notFound,
  },
  'GET /v1/dpp/resales/:tokenId': {
    attempt: (f) => ({ method: 'GET', path: `/v1/dpp/resales/${f.tokenId}` }),
    refused: notFound,
  },
  'POST /v1/dpp/revoke': {
    attempt: (f) => ({
      method: 'POST',
      path: '/v1/dpp/revoke',
      body: { tokenId: f.tokenId, reason: 'not mine' },
    }),
    refused: notFound,
  },
  'GET /v1/dpp/chip-keys': { noForeignIds: 'the caller’s own key settings' },
  'PUT /v1/dpp/chip-keys': { noForeignIds: 'sets the caller’s own keys' },
  'POST /v1/iaas/log-event': {
    attempt: (f) => ({
      method: 'POST',
      path: '/v1/iaas/log-event',
      body: {
        tokenId: f.tokenId,
        action: 'SHIPPED',
        locationName: 'X',
        latitude: 1,
        longitude: 1,
        metadata: {},
      },
    }),
    refused: notFound,
  },
  'POST /v1/iaas/events/:id/anchor': {
    attempt: (f) => ({ method: 'POST', path: `/v1/iaas/events/${f.eventId}/anchor` }),
    refused: notFound,
  },
  'GET /v1/iaas/events': {
    noForeignIds: 'filters the caller’s events (a foreign tokenId filter finds none)',
  },
  'GET /v1/iaas/events/:id': {
    attempt: (f) => ({ method: 'GET', path: `/v1/iaas/events/${f.eventId}` }),
    refused: notFound,
  },
  'GET /v1/iaas/custody/:tokenId': {
    attempt: (f) => ({ method: 'GET', path: `/v1/iaas/custody/${f.tokenId}` }),
    refused: notFound,
  },
  'POST /v1/iaas/log-recycle': {
    attempt: (f) => ({
      method: 'POST',
      path: '/v1/iaas/log-recycle',
      body: { tokenId: f.tokenId, locationName: 'X', latitude: 1, longitude: 1 },
    }),
    refused: notFound,
  },
  'GET /v1/iaas/log-recycle/:tokenId': {
    attempt: (f) => ({ method: 'GET', path: `/v1/iaas/log-recycle/${f.tokenId}` }),
    refused: notFound,
  },
  'GET /v1/aas/resolve/:id': {
    attempt: (f) => ({ method: 'GET', path: `/v1/aas/resolve/${f.tokenId}` }),
    refused: notFound,
  },
  'POST /v1/webhooks/endpoints': { noForeignIds: 'creates an endpoint for the caller' },
  'GET /v1/webhooks/endpoints': { noForeignIds: 'lists the caller’s endpoints only' },
  'GET /v1/webhooks/event-types': { noForeignIds: 'the same fixed list for everyone' },
  'GET /v1/webhooks/endpoints/:id': {
    attempt: (f) => ({ method: 'GET', path: `/v1/webhooks/endpoints/${f.endpointId}` }),
    refused: notFound,
  },
  'PATCH /v1/webhooks/endpoints/:id': {
    attempt: (f) => ({
      method: 'PATCH',
      path: `/v1/webhooks/endpoints/${f.endpointId}`,
      body: { description: 'taken' },
    }),
    refused: notFound,
  },
  'DELETE /v1/webhooks/endpoints/:id': {
    attempt: (f) => ({ method: 'DELETE', path: `/v1/webhooks/endpoints/${f.endpointId}` }),
    refused: notFound,
  },
  'POST /v1/webhooks/endpoints/:id/rotate-secret': {
    attempt: (f) => ({
      method: 'POST',
      path: `/v1/webhooks/endpoints/${f.endpointId}/rotate-secret`,
      body: {},
    }),
    refused: notFound,
  },
  'POST /v1/webhooks/endpoints/:id/test': {
    attempt: (f) => ({ method: 'POST', path: `/v1/webhooks/endpoints/${f.endpointId}/test` }),
    refused: notFound,
  },
  'GET /v1/webhooks/endpoints/:id/deliveries': {
    attempt: (f) => ({ method: 'GET', path: `/v1/webhooks/endpoints/${f.endpointId}/deliveries` }),
    refused: notFound,
  },
  'GET /v1/webhooks/events/:eventId/deliveries': {
    attempt: (f) => ({ method: 'GET', path: `/v1/webhooks/events/${f.deliveryEventId}/deliveries` }),
    refused: notFound,
  },
  'GET /v1/webhooks/dead-letters': {
    noForeignIds: 'lists the caller’s dead letters (a foreign endpointId finds none)',
  },
  'POST /v1/webhooks/dead-letters/:deliveryId/replay': {
    attempt: (f) => ({ method: 'POST', path: `/v1/webhooks/dead-letters/${f.deliveryId}/replay` }),
    refused: notFound,
  },
  'POST /v1/webhooks/dead-letters/replay': {
    attempt: (f) => ({
      method: 'POST',
      path: '/v1/webhooks/dead-letters/replay',
      body: { endpointId: f.endpointId, from: '2020-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' },
    }),
    refused: notFound,
  },
  'POST /v1/erp/provision': { noForeignIds: 'creates a twin for the caller' },
  'POST /v1/erp/provision/bulk': { noForeignIds: 'creates twins for the caller' },
  'POST /v1/factory/bind': {
    attempt: (f) => ({
      method: 'POST',
      path: '/v1/factory/bind',
      body: { service_internal_id: f.twinId, hardware: { chip_uid: '04A0A0A0A0A0F1' } },
    }),
    refused: notFound,
  },
  'POST /v1/factory/toolbox-keys': { noForeignIds: 'registers a key for the caller' },
  'GET /v1/factory/toolbox-keys': { noForeignIds: 'lists the caller’s keys only' },
  'DELETE /v1/factory/toolbox-keys/:id': {
    attempt: (f) => ({ method: 'DELETE', path: `/v1/factory/toolbox-keys/${f.toolboxKeyId}` }),
    refused: notFound,
  },
};

describe('tenant isolation: every operation with another tenant’s ids, and with the other environment', () => {
  let stack: TestStack;
  let a: TestTenant;
  let b: TestTenant;
  let receiver: Receiver;
  let foreign: Foreign;
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
  /** Everything B owns, row by row, in every table that carries a company: what a side effect would change. */
  const worldOf = async (tenant: TestTenant) => {
    const tables = await stack.api.db.orm.em.fork().execute<{ table_name: string }[]>(
      `select table_name from information_schema.columns where column_name = 'company_id'
         and table_schema = 'public' order by table_name`,
    );
    const world: Record<string, unknown[]> = {};
    for (const { table_name } of tables) {
      const rows = await stack.api.db.orm.em
        .fork()
        .execute<Record<string, unknown>[]>(`select * from ${table_name} where company_id = ? order by 1`, [
          tenant.companyId,
        ]);
      // B's own requests in the other environment use B's key there: its last use moves, nothing else may.
      world[table_name] = rows.map(({ last_used_at: _used, ...row }) => row);
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
    assert.equal((await asB('PUT', batteryContentPath(dppId), fullBatteryData())).status, 201);
    const grant = await asB('POST', '/v1/disclosure-grants', {
      granteeCompanyId: a.companyId,
      role: 'recycler',
    });
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
    };
    for (const [name, value] of Object.entries(foreign)) assert.ok(value, `set up ${name}`);
    // Quiet before the snapshot: B's anchoring and deliveries are done.
    await waitUntil(
      async () =>
        (
          await stack.api.db.orm.em
            .fork()
            .execute(`select 1 from supply_chain_events where id = ? and transaction_hash is not null`, [
              Number(foreign.eventId),
            ])
        ).length === 1,
      30_000,
      'B’s event anchored',
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
