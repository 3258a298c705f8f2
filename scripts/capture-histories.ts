// Records the histories of our real workflows (run through the real API and worker) as replay fixtures:
//   npm run capture:histories
// Commit the files in test/fixtures/histories; test/workflows/replay.test.ts replays them on every run, so a
// change that breaks determinism for workflows already in flight fails CI. Re-capture after an intended,
// change of a workflow (until the first production deployment workflows change directly, without patched(): see
// docs/architecture.md). `npm run capture:histories -- webhook` writes only the scenarios whose names start so.
import { mkdir, writeFile } from 'node:fs/promises';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { prepareBenchDatabase } from '../bench/setup.ts';
import { CLAIM_UPDATE } from '../src/processes/resale.ts';
import { FACTORY_DEFAULT_KEY, generateSun } from '../src/standards/sun/index.ts';
import { verifiedCompanyAccount } from '../test/e2e/fixtures/connect-accounts.ts';
import { startTestStack, type TestStack } from '../test/support/stack.ts';
import { postStripeEvent, signedStripeEvent } from '../test/support/stripe.ts';
import { startReceiver } from '../test/webhooks/support.ts';
import { obtainStripeMock, startStripeMock } from './dev/stripe-mock.ts';

const OUT = new URL('../test/fixtures/histories/', import.meta.url);
const keys = { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY };
const GTIN = '00012345600012';

const cleanup = await prepareBenchDatabase();
const stripeMock = await startStripeMock(await obtainStripeMock());
process.env.STRIPE_API_BASE = stripeMock.url;
// Histories come from the official dev server, as production's would; the dead-lettered webhook's 17 hours
// of timers from the official time-skipping test server.
const stack = await startTestStack();
const timeSkipping = await startTestStack({ temporal: 'time-skipping', registry: true });
try {
  const tenant = await stack.api.createTenant('Fixture Brand');
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  /** The run each fixture records: on which server, which workflow, and which run of it (default: the latest). */
  const scenarios: Record<string, { on: TestStack; workflowId: string; runId?: string }> = {};
  const capture = (name: string, workflowId: string, on: TestStack = stack) => {
    scenarios[name] = { on, workflowId };
  };

  const minted = '04F1F1F1F1F101';
  await call('POST', '/v1/dpp/enroll', { chipUid: minted });
  const tap = generateSun({ uid: minted, counter: 1, keys });
  await call('POST', '/v1/dpp/mint', {
    name: 'Fixture jacket',
    chipUid: minted,
    nfcData: `picc_data=${tap.piccData}&cmac=${tap.cmac}`,
    custom_dpp_data: { gtin: GTIN, conformity_url: 'https://fixture.example/doc.pdf' },
  });
  capture('mint-shape-a-completed', `mint:test:${minted}`);

  const [passport] = await stack.api.db.orm.em
    .fork()
    .execute<{ token_id: string }[]>('select token_id from passports where chip_uid = ?', [minted]);
  const logged = await call('POST', '/v1/iaas/log-event', {
    tokenId: passport!.token_id,
    action: 'SHIPPED',
    locationName: 'Fixture port',
    latitude: 53.5,
    longitude: 9.9,
    metadata: {},
  });
  const anchorId = `anchor-event:test:${logged.body.eventId}`;
  await stack.temporal.client.workflow.getHandle(anchorId).result();
  capture('anchor-event-shipped', anchorId);

  // A model passport's first version, anchored by its own workflow (no token: anchorVersion).
  await call('POST', '/v1/dpps', { granularity: 'Model', gtin: GTIN });
  const [model] = await stack.api.db.orm.em
    .fork()
    .execute<{ id: number }[]>('select id from dpp_levels where gtin = ?', [GTIN]);
  const levelAnchorId = `anchor-level-version:test:${model!.id}:1`;
  await stack.temporal.client.workflow.getHandle(levelAnchorId).result();
  capture('anchor-level-version-model', levelAnchorId);

  // Spreadsheet imports: one written (check, then write), one refused at the check (a bad row).
  for (const [name, rows] of [
    ['spreadsheet-import-written', 'FIX-1,PO-1\r\nFIX-2,PO-1'],
    ['spreadsheet-import-refused', 'FIX-3,PO-1\r\n,PO-1'],
  ] as const) {
    const content = Buffer.from(`material_number,order_id\r\n${rows}\r\n`).toString('base64');
    const started = await call('POST', '/v1/erp/provision/imports', { fileName: `${name}.csv`, content });
    const importId = `spreadsheet-import:test:${started.body.job.id}`;
    await stack.temporal.client.workflow.getHandle(importId).result();
    capture(name, importId);
  }

  const rejected = '04F1F1F1F1F102';
  await call('POST', '/v1/dpp/enroll', { chipUid: rejected });
  await call('POST', '/v1/dpp/mint', {
    gtin: GTIN,
    chipUid: rejected,
    material: 'Wool',
    customDppData: { conformity_url: 'https://fixture.example/doc.pdf' },
  });
  capture('mint-shape-b-unverified-failed', `mint:test:${rejected}`);

  const recycledChip = '04F1F1F1F1F105';
  await call('POST', '/v1/dpp/enroll', { chipUid: recycledChip });
  const recycleTap = generateSun({ uid: recycledChip, counter: 1, keys });
  const recycledMint = await call('POST', '/v1/dpp/mint', {
    name: 'Fixture boot',
    chipUid: recycledChip,
    nfcData: `picc_data=${recycleTap.piccData}&cmac=${recycleTap.cmac}`,
    custom_dpp_data: { gtin: GTIN, conformity_url: 'https://fixture.example/doc.pdf' },
  });
  const recycledToken = recycledMint.body.blockchain.tokenId as string;
  await call('POST', '/v1/iaas/log-recycle', {
    tokenId: recycledToken,
    locationName: 'Fixture recycling hub',
    latitude: 53.5,
    longitude: 10,
  });
  capture('recycle-completed', `recycle:test:${recycledToken}`);

  // Webhooks (timers skipped): a delivery whose first attempt (the dispatcher's; an accepted one runs no
  // workflow) failed, then all its retries; then replays of that dead letter, which run attempt 1 themselves:
  // one failing throughout, one delivered.
  Object.assign(scenarios, await captureWebhook(timeSkipping, '04F1F1F1F1F104'));

  // Resale: one sold and claimed (real time), one left unpaid until its checkout expired (24 h skipped).
  const claimed = await captureResale(stack, '04F1F1F1F1F106', true);
  capture('resale-claimed', claimed.workflowId);
  capture('resale-payout-paid', claimed.payoutWorkflowId!);
  capture(
    'resale-expired',
    (await captureResale(timeSkipping, '04F1F1F1F1F107', false)).workflowId,
    timeSkipping,
  );

  // The EU registry (timers skipped): a model passport refused (its company has no EORI yet), then the EORI set,
  // the retry asked for, registered; the run lingers for more intents and completes.
  capture('registry-refused-then-registered', await captureRegistry(timeSkipping), timeSkipping);

  await mkdir(OUT, { recursive: true });
  const only = process.argv.slice(2);
  for (const [name, { on, workflowId, runId }] of Object.entries(scenarios)) {
    if (only.length > 0 && !only.some((prefix) => name.startsWith(prefix))) continue;
    const history = await on.temporal.client.workflow.getHandle(workflowId, runId).fetchHistory();
    await writeFile(new URL(`${name}.json`, OUT), `${historyToJSON(history)}\n`);
    console.log(`captured ${name} (${history.events?.length ?? 0} events)`);
  }
} finally {
  await stack.close();
  await timeSkipping.close();
  await stripeMock.stop();
  await cleanup();
}
process.exit(0);

/**
 * Deliveries of asset.initialized to a receiver answering 500: the dispatcher's failed attempt 1 and the
 * workflow's five retries; a replay of the dead letter failing six times; a replay delivered (answered 200).
 */
async function captureWebhook(
  on: TestStack,
  chipUid: string,
): Promise<Record<string, { on: TestStack; workflowId: string; runId: string }>> {
  const hooks = await on.api.createTenant('Fixture Subscriber');
  let status = 500;
  const receiver = await startReceiver(() => ({ status }));
  const hookCall = (path: string, body?: unknown) =>
    on.api.call('POST', path, { key: hooks.testKey, ...(body === undefined ? {} : { body }) });
  const endpoint = (await hookCall('/v1/webhooks/endpoints', { url: receiver.url })).body.endpoint.id;
  await hookCall('/v1/dpp/enroll', { chipUid });
  await receiver.waitFor(1);
  const [row] = await on.api.db.orm.em
    .fork()
    .execute<{ id: string; event_id: string }[]>(
      'select id, event_id from webhook_deliveries where endpoint_id = ?',
      [endpoint],
    );
  const workflowId = `webhook:${row!.event_id}:${endpoint}`;
  // The dispatcher starts the workflow after its own attempt failed: wait for it to exist.
  for (let i = 0; i < 100; i++) {
    const started = await on.temporal.client.workflow
      .getHandle(workflowId)
      .describe()
      .then(() => true)
      .catch(() => false);
    if (started) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const runs: Record<string, { on: TestStack; workflowId: string; runId: string }> = {};
  const finishRun = async (name: string) => {
    const handle = on.temporal.client.workflow.getHandle(workflowId);
    await handle.result();
    runs[name] = { on, workflowId, runId: (await handle.describe()).runId };
  };
  await finishRun('webhook-dead-lettered');
  await hookCall(`/v1/webhooks/dead-letters/${row!.id}/replay`);
  await finishRun('webhook-replay-dead-lettered');
  status = 200;
  await hookCall(`/v1/webhooks/dead-letters/${row!.id}/replay`);
  await finishRun('webhook-replay-delivered');
  await on.api.call('DELETE', `/v1/webhooks/endpoints/${endpoint}`, { key: hooks.testKey });
  await receiver.close();
  return runs;
}

/**
 * A brand's resale of a freshly minted passport; `sold`: paid (signed event), claimed and paid out to the
 * brand's verified Connect account, else left to expire.
 */
async function captureResale(
  on: TestStack,
  chipUid: string,
  sold: boolean,
): Promise<{ workflowId: string; payoutWorkflowId?: string }> {
  const brand = await on.api.createTenant('Fixture Reseller');
  const call = (method: string, path: string, body?: unknown) =>
    on.api.call(method, path, { key: brand.testKey, ...(body === undefined ? {} : { body }) });
  await call('POST', '/v1/dpp/enroll', { chipUid });
  const mintTap = generateSun({ uid: chipUid, counter: 1, keys });
  const minted = await call('POST', '/v1/dpp/mint', {
    name: 'Fixture coat',
    chipUid,
    nfcData: `picc_data=${mintTap.piccData}&cmac=${mintTap.cmac}`,
    custom_dpp_data: { gtin: GTIN, conformity_url: 'https://fixture.example/doc.pdf' },
  });
  const tokenId = minted.body.blockchain.tokenId as string;
  const released = await call('POST', '/v1/dpp/release', {
    tokenId,
    price: { amount: 9900, currency: 'eur' },
    buyerEmail: 'fixture.buyer@example.com',
  });
  const handle = on.temporal.client.workflow.getHandle(`resale:test:${tokenId}`);
  if (sold) {
    const { buyerWallet } = (await call('GET', `/v1/dpp/resales/${tokenId}`)).body;
    // First a payment of the wrong amount, which the resale refuses and refunds (the signal's refund branch).
    const refused = signedStripeEvent({
      id: `evt_fixture_refused_${tokenId}`,
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: `pi_fixture_refused_${tokenId}`,
          amount: 100,
          currency: 'eur',
          metadata: { tokenId, buyerWallet },
        },
      },
    });
    await postStripeEvent(on.api, refused);
    const refunded = async () => {
      const { progress } = (await call('GET', `/v1/dpp/resales/${tokenId}`)).body;
      return progress?.refusedPayments?.[0]?.refund?.status === 'refunded';
    };
    while (!(await refunded())) await new Promise((resolve) => setTimeout(resolve, 100));
    const paid = signedStripeEvent({
      id: `evt_fixture_${tokenId}`,
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: `pi_fixture_${tokenId}`,
          object: 'payment_intent',
          amount: 9900,
          amount_received: 9900,
          currency: 'eur',
          latest_charge: `ch_fixture_${tokenId}`,
          metadata: { tokenId, buyerWallet, resaleId: released.body.resaleId },
        },
      },
    });
    await on.api.call('POST', '/v1/public/webhook/checkout', {
      env: null,
      rawBody: paid.body,
      headers: paid.headers,
    });
    while ((await call('GET', `/v1/dpp/resales/${tokenId}`)).body.status !== 'AWAITING_CLAIM') {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await verifiedCompanyAccount(
      call,
      (signed) => postStripeEvent(on.api, signed),
      `evt_fixture_acct_${tokenId}`,
    );
    await handle.executeUpdate(CLAIM_UPDATE, { args: [{ buyerWallet }] });
    await handle.result();
    const payoutWorkflowId = `resale-payout:test:${released.body.resaleId}`;
    await on.temporal.client.workflow.getHandle(payoutWorkflowId).result();
    return { workflowId: handle.workflowId, payoutWorkflowId };
  }
  await handle.result();
  return { workflowId: handle.workflowId };
}

async function captureRegistry(on: TestStack): Promise<string> {
  const tenant = await on.api.createTenant('Fixture Registrant');
  const call = (method: string, path: string, body?: unknown) =>
    on.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const created = await call('POST', '/v1/dpps', {
    granularity: 'Model',
    gtin: '09506000134352',
    'urn:dpp-service:spec:battery:1.0.0': {
      generalProductInformation: { manufacturerName: 'Fixture Cells' },
    },
  });
  const dppId = created.body.digitalProductPassportId as string;
  const registration = `/v1/dpps/${encodeURIComponent(dppId)}/registration`;
  while ((await call('GET', registration)).body.state !== 'refused') {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await call('PATCH', '/v1/company/settings', { economicOperatorId: 'DE1234567890123' });
  await call('POST', `${registration}/retry`);
  // Waited out here, not by result(): the time-skipping server would skip the refused run's wait before the nudge.
  const registered = async () => {
    const read = (await call('GET', registration)).body;
    return read.state === 'registered' && read.pendingVersions === 0;
  };
  while (!(await registered())) await new Promise((resolve) => setTimeout(resolve, 100));
  const workflowId = `registry:test:${dppId.replace('urn:uuid:', '')}`;
  await on.temporal.client.workflow.getHandle(workflowId).result();
  return workflowId;
}
