import assert from 'node:assert/strict';
import { formatEther, parseEther } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { companyCustodyAddress } from '../../src/accounts/wallets/custody.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { RECYCLING_SITE } from '../support/fixtures/products.ts';
import { startTestStack, TEST_DEPOSIT, type TestStack } from '../support/stack.ts';

describe('recycling end to end (log-recycle → recycle workflow → deposit released)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let other: TestTenant;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const sql = (query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.getConnection().execute(query, params);

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    other = await stack.api.createTenant('Other Brand');
  });
  afterAll(() => stack.close());

  test('pays the deposit to the named receiver once, records the event and asset.recycled', async () => {
    const tokenId = await enrollAndMint(call, '04B1B2C3D4E501');
    const receiver = stack.chain.others[3]!.address;
    const provider = stack.chain.chain.provider;
    const before = await provider.getBalance(receiver);

    const answer = await call('POST', '/v1/iaas/log-recycle', {
      tokenId,
      ...RECYCLING_SITE,
      rewardReceiver: receiver.toLowerCase(),
    });
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.body.success, true);
    assert.equal(answer.body.recycled, true);
    assert.equal(answer.body.releasedDeposit, `${TEST_DEPOSIT} ETH`);
    assert.equal(typeof answer.body.message, 'string');
    assert.equal(answer.body.rewardReceiver, receiver);
    const transactionHash = answer.body.transactionHash;

    assert.equal((await provider.getBalance(receiver)) - before, parseEther(TEST_DEPOSIT));
    assert.equal(await stack.chain.chain.reader.isRecycled(tokenId), true);
    assert.equal(await stack.chain.chain.reader.depositOf(tokenId), 0n);

    const [passport] = await sql(
      'select status, locked_deposit_wei::text as locked from passports where token_id = ?',
      [tokenId],
    );
    assert.deepEqual(passport, { status: 'RECYCLED', locked: '0' });
    const events = await sql(
      `select actor, location_name, latitude, longitude, metadata, transaction_hash
         from supply_chain_events where token_id = ? and action = 'RECYCLE_TRANSFER'`,
      [tokenId],
    );
    const recycler = companyCustodyAddress(undefined, tenant.companyId, 'test');
    assert.deepEqual(events, [
      {
        actor: recycler,
        location_name: RECYCLING_SITE.locationName,
        latitude: RECYCLING_SITE.latitude,
        longitude: RECYCLING_SITE.longitude,
        metadata: {
          from: stack.chain.contractAddress,
          to: receiver,
          amount: TEST_DEPOSIT,
          amountWei: parseEther(TEST_DEPOSIT).toString(),
        },
        transaction_hash: transactionHash,
      },
    ]);
    const outbox = await sql(`select data from outbox_events where event_type = 'asset.recycled'`);
    assert.deepEqual(
      outbox.map((row) => row.data),
      [{ tokenId, recycler, rewardReceiver: receiver, depositReleased: TEST_DEPOSIT, transactionHash }],
    );

    const again = await call('POST', '/v1/iaas/log-recycle', { tokenId, ...RECYCLING_SITE });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'already_recycled');
    const status = await call('GET', `/v1/iaas/log-recycle/${tokenId}`);
    assert.equal(status.body.status, 'COMPLETED');
    assert.equal(status.body.result.transactionHash, transactionHash);
  });

  test('without rewardReceiver the deposit goes to the recycling company’s custodial wallet', async () => {
    const tokenId = await enrollAndMint(call, '04B1B2C3D4E502');
    const wallet = companyCustodyAddress(undefined, tenant.companyId, 'test');
    const before = await stack.chain.chain.provider.getBalance(wallet);
    const answer = await call('POST', '/v1/iaas/log-recycle', { tokenId, ...RECYCLING_SITE });
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.body.rewardReceiver, wallet);
    const gained = (await stack.chain.chain.provider.getBalance(wallet)) - before;
    assert.equal(formatEther(gained), TEST_DEPOSIT);
  });

  test('a token recycled on chain behind our back is recorded as it happened, never paid twice', async () => {
    const tokenId = await enrollAndMint(call, '04B1B2C3D4E503');
    await stack.chain.chain.writer.recycle({ tokenId, rewardReceiver: stack.chain.others[4]!.address });
    const answer = await call('POST', '/v1/iaas/log-recycle', { tokenId, ...RECYCLING_SITE });
    // The workflow finds the earlier recycle on chain and records it instead of paying twice.
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.body.rewardReceiver, stack.chain.others[4]!.address);
    const again = await call('POST', '/v1/iaas/log-recycle', { tokenId, ...RECYCLING_SITE });
    assert.equal(again.status, 409);
  });

  test('unknown tokens, other companies’ tokens and bad requests are refused', async () => {
    const tokenId = await enrollAndMint(call, '04B1B2C3D4E504');
    const unknown = await call('POST', '/v1/iaas/log-recycle', { tokenId: '999999', ...RECYCLING_SITE });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'passport_not_found');
    const foreign = await stack.api.call('POST', '/v1/iaas/log-recycle', {
      key: other.testKey,
      body: { tokenId, ...RECYCLING_SITE },
    });
    assert.equal(foreign.status, 404);
    const foreignStatus = await stack.api.call('GET', `/v1/iaas/log-recycle/${tokenId}`, {
      key: other.testKey,
    });
    assert.equal(foreignStatus.status, 404);
    const bad = await call('POST', '/v1/iaas/log-recycle', {
      tokenId: 'abc',
      locationName: '',
      latitude: 91,
      longitude: 0,
      rewardReceiver: '0x123',
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors.map((e: { path: string }) => e.path).sort(), [
      'body.latitude',
      'body.locationName',
      'body.rewardReceiver',
      'body.tokenId',
    ]);
    const zero = await call('POST', '/v1/iaas/log-recycle', {
      tokenId,
      ...RECYCLING_SITE,
      rewardReceiver: `0x${'0'.repeat(40)}`,
    });
    assert.equal(zero.status, 400);
    assert.equal(zero.body.code, 'invalid_reward_receiver');
    assert.equal(await stack.chain.chain.reader.isRecycled(tokenId), false);
  });
});
