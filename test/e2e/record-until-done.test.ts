import assert from 'node:assert/strict';
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { userWalletAddress } from '../../src/accounts/wallets/user-wallet.ts';
import { ANCHOR_PROGRESS_QUERY } from '../../src/processes/anchor-event.ts';
import { RETRY_RECORDING_SIGNAL } from '../../src/processes/record-until-done.ts';
import { RESALE_PROGRESS_QUERY } from '../../src/processes/resale.ts';
import { searchAttributes } from '../../src/processes/search-attributes.ts';
import type { TestTenant } from '../support/api.ts';
import { claimWithChallenge } from '../support/fixtures/claim.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { RECYCLING_SITE } from '../support/fixtures/products.ts';
import { tapUrl } from '../support/fixtures/sun.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { paymentSucceeded, postStripeEvent } from '../support/stripe.ts';
import { waitFor as waitForSeconds } from '../support/wait-for.ts';
import { type Receiver, startReceiver } from '../webhooks/support.ts';
import { verifiedCompanyAccount } from './fixtures/connect-accounts.ts';
import { personToken } from './fixtures/people.ts';

const BUYER = 'late.recorder@example.com';
/** More than the ten attempts after which the database step used to give up for good. */
const REFUSALS = 12;

interface Attention {
  reason: string;
  error: string;
  failedRounds: number;
}

const waitFor = <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean) =>
  waitForSeconds(what, read, done, 30);

/**
 * Recycle, event anchoring and the resale claim write the chain first and the database second. Before, the
 * database step gave up after its ten attempts and the two disagreed for good (no webhook; after a claim no
 * payout and no refund). Now, as the mint does, the workflow flags itself (DppAttention = record_failed and
 * `attention` in its progress) and keeps retrying until the record lands. The database refuses the records
 * here for a while: a trigger raises for the first REFUSALS inserts of the step's outbox event (a sequence
 * counts them, so a refused transaction still counts). An operator asks for retries (the `retryRecording`
 * signal) instead of waiting 10 minutes per round.
 */
describe('recording after a chain write is never given up', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let receiver: Receiver;
  let smtp: SmtpReceiver;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);

  /** The database refuses the first `times` outbox inserts of `eventType` (whole transactions roll back). */
  const refuseFirst = async (eventType: string, times: number) => {
    const name = `refuse_${eventType.replace(/\W/g, '_')}`;
    await sql(`create sequence ${name}_count`);
    await sql(
      `create function ${name}() returns trigger language plpgsql as $$
       begin
         if nextval('${name}_count') <= ${times} then
           raise exception 'refuse_recording: % refused by the test', new.event_type;
         end if;
         return new;
       end $$`,
    );
    await sql(
      `create trigger ${name} before insert on outbox_events for each row
       when (new.event_type = '${eventType}') execute function ${name}()`,
    );
    return async () => (await sql<{ n: string }>(`select last_value as n from ${name}_count`))[0]!.n;
  };
  const attentionOf = async (workflowId: string) =>
    (await stack.temporal.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes.get(
      searchAttributes.attention,
    );
  /** Signals `retryRecording` every second (as an impatient operator would) until `done` settles. */
  const retryUntil = async <T>(workflowId: string, done: Promise<T>): Promise<T> => {
    let settled = false;
    const watched = done.finally(() => {
      settled = true;
    });
    while (!settled) {
      await stack.temporal.client.workflow
        .getHandle(workflowId)
        .signal(RETRY_RECORDING_SIGNAL)
        .catch(() => {}); // completed meanwhile
      await Promise.race([watched.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000))]);
    }
    return watched;
  };
  const delivered = (eventType: string) =>
    receiver.requests.map((r) => JSON.parse(r.body)).filter((body) => body.eventType === eventType);

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    stack = await startTestStack({ mintWaitMs: 2000, apiEnv: { SMTP_URL: smtp.url } });
    tenant = await stack.api.createTenant('Acme Apparel');
    receiver = await startReceiver();
    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      url: receiver.url,
      eventTypes: ['asset.recycled', 'asset.shipped', 'asset.transferred', 'asset.resold'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
    await smtp?.close();
  });

  test('recycle: released on chain, recorded once the database takes it, asset.recycled sent', async () => {
    const tokenId = await enrollAndMint(call, '04BEC0DE000001');
    const refused = await refuseFirst('asset.recycled', REFUSALS);

    const answer = await call('POST', '/v1/iaas/log-recycle', { tokenId, ...RECYCLING_SITE });
    assert.equal(answer.status, 202, answer.text);
    const workflowId = answer.body.workflowId as string;
    const status = await waitFor(
      'recycle flagged',
      async () => (await call('GET', `/v1/iaas/log-recycle/${tokenId}`)).body,
      (body) => body.progress?.attention !== undefined,
    );
    assert.equal(status.status, 'RUNNING', 'not FAILED: the deposit is released on chain');
    assert.equal(status.progress.step, 'recording');
    const attention: Attention = status.progress.attention;
    assert.equal(attention.reason, 'record_failed');
    assert.match(attention.error, /refuse_recording/);
    assert.equal(await attentionOf(workflowId), 'record_failed', 'operators find it by DppAttention');
    assert.equal(await stack.chain.chain.reader.isRecycled(tokenId), true, 'on chain already');
    const [before] = await sql<{ status: string }>('select status from passports where token_id = ?', [
      tokenId,
    ]);
    assert.equal(before?.status, 'ACTIVE', 'not recorded yet');
    assert.deepEqual(delivered('asset.recycled'), []);

    // The operator asks for retries; the database refuses a few rounds more, then takes it.
    const result = await retryUntil(
      workflowId,
      stack.temporal.client.workflow.getHandle(workflowId).result(),
    );
    assert.equal(result.status, 'RECYCLED');
    assert.equal(await refused(), String(REFUSALS + 1), 'every refused attempt, then the one that landed');
    const [after] = await sql<{ status: string }>('select status from passports where token_id = ?', [
      tokenId,
    ]);
    assert.equal(after?.status, 'RECYCLED');
    assert.equal(await attentionOf(workflowId), undefined, 'the flag is cleared');
    const done = await call('GET', `/v1/iaas/log-recycle/${tokenId}`);
    assert.equal(done.body.status, 'COMPLETED', done.text);
    await receiver.waitFor(1);
    await waitFor(
      'asset.recycled delivered',
      async () => delivered('asset.recycled'),
      (d) => d.length > 0,
    );
    assert.deepEqual(
      delivered('asset.recycled').map((body) => [body.data.tokenId, body.data.transactionHash]),
      [[tokenId, result.transactionHash]],
    );
  });

  test('event anchor: logged on chain, recorded once the database takes it, asset.shipped sent', async () => {
    const tokenId = await enrollAndMint(call, '04BEC0DE000002');
    const refused = await refuseFirst('asset.shipped', REFUSALS);

    const logged = await call('POST', '/v1/iaas/log-event', {
      tokenId,
      action: 'SHIPPED',
      locationName: 'Hamburg port',
      latitude: 53.5,
      longitude: 9.9,
      metadata: {},
    });
    assert.ok([200, 201, 202].includes(logged.status), logged.text);
    const eventId = logged.body.eventId as number;
    const workflowId = `anchor-event:test:${eventId}`;
    const handle = stack.temporal.client.workflow.getHandle(workflowId);
    const progress = await waitFor(
      'anchor flagged',
      () =>
        handle.query<{ step: string; transactionHash?: string; attention?: Attention }>(
          ANCHOR_PROGRESS_QUERY,
        ),
      (p) => p.attention !== undefined,
    );
    assert.equal(progress.step, 'recording');
    assert.match(progress.attention!.error, /refuse_recording/);
    assert.equal((await handle.describe()).status.name, 'RUNNING');
    assert.equal(await attentionOf(workflowId), 'record_failed');
    const [row] = await sql<{ transaction_hash: string | null }>(
      'select transaction_hash from supply_chain_events where id = ?',
      [eventId],
    );
    assert.equal(row?.transaction_hash, null, 'not recorded yet');

    const result = await retryUntil(workflowId, handle.result());
    assert.equal(await refused(), String(REFUSALS + 1));
    const [anchored] = await sql<{ transaction_hash: string | null }>(
      'select transaction_hash from supply_chain_events where id = ?',
      [eventId],
    );
    assert.equal(anchored?.transaction_hash, result.transactionHash);
    assert.equal(result.transactionHash, progress.transactionHash);
    assert.equal(await attentionOf(workflowId), undefined);
    await waitFor(
      'asset.shipped delivered',
      async () => delivered('asset.shipped'),
      (d) => d.length > 0,
    );
    assert.deepEqual(
      delivered('asset.shipped').map((body) => [body.data.tokenId, body.data.transactionHash]),
      [[tokenId, result.transactionHash]],
    );
  });

  test('resale claim: ownership moved on chain, recorded once the database takes it, then the payout', async () => {
    const chipUid = '04BEC0DE000003';
    const tokenId = await enrollAndMint(call, chipUid);
    const buyerWallet = userWalletAddress(undefined, BUYER);
    const buyerToken = await personToken(stack.api, smtp, BUYER);
    const webhook = (signed: { body: string; headers: Record<string, string> }) =>
      postStripeEvent(stack.api, signed);

    const released = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 12900, currency: 'EUR' },
      buyerEmail: BUYER,
    });
    assert.equal(released.status, 201, released.text);
    const resaleId: string = released.body.resaleId;
    const paid = paymentSucceeded('evt_late_record_paid', { tokenId, buyerWallet, resaleId });
    assert.equal((await webhook(paid)).body.outcome, 'applied');
    await waitFor(
      'buyer authorized',
      async () => (await call('GET', `/v1/dpp/resales/${tokenId}`)).body,
      (body) => body.status === 'AWAITING_CLAIM',
    );
    await verifiedCompanyAccount(call, webhook, 'evt_late_record_acct');
    const refused = await refuseFirst('asset.transferred', REFUSALS);

    // The claim waits for its record; meanwhile the workflow shows why.
    const claiming = claimWithChallenge(
      stack.api,
      buyerToken,
      tokenId,
      tapUrl(chipUid, 2, 'https://id.example/01/x/21/1'),
    );
    const workflowId = `resale:test:${tokenId}`;
    const handle = stack.temporal.client.workflow.getHandle(workflowId);
    const progress = await waitFor(
      'claim flagged',
      () =>
        handle.query<{
          state: string;
          claimTxHash?: string;
          attention?: Attention;
          payoutWorkflowId?: string;
        }>(RESALE_PROGRESS_QUERY),
      (p) => p.attention !== undefined,
    );
    assert.equal(progress.state, 'CLAIMING');
    assert.match(progress.attention!.error, /refuse_recording/);
    assert.equal(progress.payoutWorkflowId, undefined, 'no payout before the claim is recorded');
    assert.equal(await attentionOf(workflowId), 'record_failed');
    assert.equal(
      getAddress(await stack.chain.chain.reader.ownerOf(tokenId)),
      buyerWallet,
      'the buyer owns it on chain',
    );
    assert.deepEqual(delivered('asset.transferred'), []);

    const answer = await retryUntil(workflowId, claiming);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.ownerWallet, buyerWallet);
    assert.equal(answer.body.txHash, progress.claimTxHash);
    assert.equal(await refused(), String(REFUSALS + 1));
    const [owner] = await sql<{ owner_wallet: string }>(
      'select owner_wallet from passports where token_id = ? and environment = ?',
      [tokenId, 'test'],
    );
    assert.equal(getAddress(owner!.owner_wallet), buyerWallet, 'the database agrees with the chain');
    await handle.result();
    assert.equal(await attentionOf(workflowId), undefined);
    await waitFor(
      'asset.transferred delivered',
      async () => delivered('asset.transferred'),
      (d) => d.length > 0,
    );
    assert.equal(delivered('asset.transferred')[0].data.transactionHash, progress.claimTxHash);
    const payout = await stack.temporal.client.workflow.getHandle(`resale-payout:test:${resaleId}`).result();
    assert.equal(payout.status, 'PAID', JSON.stringify(payout));
  });
});
