import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { CallResult, TestTenant } from '../support/api.ts';
import { BATTERY_DATA, contentPath } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const enc = encodeURIComponent;

/**
 * Transfer of responsibility for a passport between two economic operators (EN 18239; issue 35, docs/exit.md):
 * an offer by the passport's company, accepted, declined, withdrawn or expired; on acceptance the passport is
 * the receiver's (write rules follow), its history and versions record it, both companies get a webhook event;
 * an acceptance and a withdrawal at the same moment: one wins, the other gets 409.
 */
describe('handing a passport to another economic operator', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let receiver: TestTenant;
  let stranger: TestTenant;
  let chips = 0;
  const as = (tenant: TestTenant) => (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, body });

  /** A fresh passport of the brand: its token id and DPP id. */
  const mint = async () => {
    chips++;
    const tokenId = await enrollAndMint(as(brand), `04D0D0D0D0D0${String(chips).padStart(2, '0')}`);
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    return { tokenId, dppId: view.body.dppHeader.digitalProductPassportId as string };
  };
  const offer = (dppId: string, to: TestTenant, extra: Record<string, unknown> = {}) =>
    as(brand)('POST', `/v1/dpps/${enc(dppId)}/transfers`, { toCompanyId: to.companyId, ...extra });
  const decide = (tenant: TestTenant, id: string, action: string) =>
    as(tenant)('POST', `/v1/transfers/${id}/${action}`);
  const outboxTypes = async (companyId: string) =>
    (
      await stack.api.db.orm.em
        .fork()
        .execute<{ event_type: string; data: { transferId: string } }[]>(
          'select event_type, data from outbox_events where company_id = ? order by occurred_at',
          [companyId],
        )
    ).filter((row) => row.event_type.startsWith('passport.'));
  const assertProblem = (answer: CallResult, status: number, code: string) => {
    assert.equal(answer.status, status, answer.text);
    assert.equal(answer.body.code, code, answer.text);
  };

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    receiver = await stack.api.createTenant('Second Life Batteries');
    stranger = await stack.api.createTenant('Nobody GmbH');
  }, 300_000);
  afterAll(() => stack?.close());

  test('an accepted offer: the receiver operates the passport, the history and versions say who, when, from, to', async () => {
    const { tokenId, dppId } = await mint();
    const versions = async () =>
      (await stack.api.call('GET', `/test/v1/dpps/${enc(dppId)}/versions`, { env: null })).body.items as {
        number: number;
      }[];
    const before = (await versions()).length;

    const offered = await offer(dppId, receiver, { note: 'second life' });
    assert.equal(offered.status, 201, offered.text);
    const { id } = offered.body.transfer;
    assert.equal(offered.headers.get('location'), `/v1/transfers/${id}`);
    assert.deepEqual(
      {
        status: offered.body.transfer.status,
        dppId: offered.body.transfer.dppId,
        from: offered.body.transfer.fromCompanyId,
        to: offered.body.transfer.toCompanyId,
      },
      { status: 'offered', dppId, from: brand.companyId, to: receiver.companyId },
    );
    assertProblem(await offer(dppId, receiver), 409, 'transfer_already_offered');
    const received = await as(receiver)('GET', '/v1/transfers');
    assert.deepEqual(
      received.body.transfers.map((t: { id: string }) => t.id),
      [id],
    );
    assert.deepEqual((await as(stranger)('GET', '/v1/transfers')).body.transfers, []);
    // Until accepted the passport is the brand's.
    assert.equal((await as(receiver)('PUT', contentPath(dppId), BATTERY_DATA)).status, 404);

    assertProblem(await decide(brand, id, 'accept'), 403, 'not_your_decision');
    assertProblem(await decide(stranger, id, 'accept'), 404, 'transfer_not_found');
    const accepted = await decide(receiver, id, 'accept');
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.transfer.status, 'accepted');
    assert.ok(accepted.body.transfer.decidedAt);

    // Write rules follow the operator: the receiver writes, the brand no longer does.
    assert.equal((await as(receiver)('PUT', contentPath(dppId), BATTERY_DATA)).status, 201);
    assert.equal((await as(brand)('PUT', contentPath(dppId), BATTERY_DATA)).status, 404);
    assert.equal(
      (await as(brand)('POST', '/v1/dpp/revoke', { tokenId, reason: 'not mine any more' })).status,
      404,
    );

    // The version history: a version for the transfer, whose history names who, when, from and to.
    const after = await versions();
    assert.ok(after.length > before, 'a new version');
    assert.ok(after.some((v) => v.number === accepted.body.version));
    const version = await stack.api.call(
      'GET',
      `/test/v1/dpps/${enc(dppId)}/versions/${accepted.body.version}`,
      { env: null, key: receiver.testKey },
    );
    assert.equal(version.status, 200, version.text);
    assert.match(version.text, /OPERATOR_TRANSFERRED/);
    assert.match(version.text, /Second Life Batteries/);
    const [event] = await stack.api.db.orm.em
      .fork()
      .execute<{ company_id: string; actor: string; metadata: Record<string, { companyId: string }> }[]>(
        'select company_id, actor, metadata from supply_chain_events where id = ?',
        [accepted.body.eventId],
      );
    assert.equal(event!.company_id, receiver.companyId);
    assert.equal(event!.actor, 'Second Life Batteries');
    assert.equal(event!.metadata.from!.companyId, brand.companyId);
    assert.equal(event!.metadata.to!.companyId, receiver.companyId);

    // Both companies are told; the receiver also of the offer.
    const mine = (rows: { event_type: string; data: { transferId: string } }[]) =>
      rows.filter((row) => row.data.transferId === id).map((row) => row.event_type);
    assert.deepEqual(mine(await outboxTypes(brand.companyId)), ['passport.operator_transferred']);
    assert.deepEqual(mine(await outboxTypes(receiver.companyId)), [
      'passport.transfer_offered',
      'passport.operator_transferred',
    ]);
    // The brand may no longer offer it; the receiver may.
    assertProblem(await offer(dppId, stranger), 404, 'passport_not_found');
    const onward = await as(receiver)('POST', `/v1/dpps/${enc(dppId)}/transfers`, {
      toCompanyId: brand.companyId,
    });
    assert.equal(onward.status, 201, onward.text);
    assert.equal((await decide(receiver, onward.body.transfer.id, 'withdraw')).status, 200);
  });

  test('declined, withdrawn and expired offers close; a closed offer takes no decision (409)', async () => {
    const { dppId } = await mint();
    const first = (await offer(dppId, receiver)).body.transfer.id;
    assertProblem(await decide(receiver, first, 'withdraw'), 403, 'not_your_decision');
    const declined = await decide(receiver, first, 'decline');
    assert.equal(declined.body.transfer.status, 'declined');
    assertProblem(await decide(receiver, first, 'accept'), 409, 'transfer_not_open');
    assertProblem(await decide(brand, first, 'withdraw'), 409, 'transfer_not_open');
    assert.deepEqual(
      (await outboxTypes(brand.companyId))
        .filter((r) => r.data.transferId === first)
        .map((r) => r.event_type),
      ['passport.transfer_declined'],
    );

    const second = (await offer(dppId, receiver, { expiresInDays: 1 })).body.transfer.id;
    await stack.api.db.orm.em
      .fork()
      .execute(`update passport_transfers set expires_at = now() - interval '1 second' where id = ?`, [
        second,
      ]);
    const late = await decide(receiver, second, 'accept');
    assertProblem(late, 409, 'transfer_not_open');
    assert.match(late.body.detail, /expired/);
    const listed = (await as(brand)('GET', '/v1/transfers')).body.transfers.find(
      (t: { id: string }) => t.id === second,
    );
    assert.equal(listed.status, 'expired');
    // An expired offer does not block a new one.
    assert.equal((await offer(dppId, receiver)).status, 201);
    assertProblem(await offer(dppId, brand), 400, 'transfer_to_self');
  });

  test('accept and withdraw at the same moment: one wins, the other gets a clear 409', async () => {
    for (let round = 0; round < 3; round++) {
      const { dppId } = await mint();
      const id = (await offer(dppId, receiver)).body.transfer.id;
      const [accepted, withdrawn] = await Promise.all([
        decide(receiver, id, 'accept'),
        decide(brand, id, 'withdraw'),
      ]);
      const statuses = [accepted.status, withdrawn.status].sort();
      assert.deepEqual(statuses, [200, 409], `${accepted.text} ${withdrawn.text}`);
      const loser = accepted.status === 409 ? accepted : withdrawn;
      assert.equal(loser.body.code, 'transfer_not_open');
      // The passport is where the winner says.
      const operator = accepted.status === 200 ? receiver : brand;
      assert.equal((await as(operator)('PUT', contentPath(dppId), BATTERY_DATA)).status, 201);
    }
  });
});
