import assert from 'node:assert/strict';
import { parseEther } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { RECYCLING_SITE } from '../support/fixtures/products.ts';
import { startTestStack, TEST_DEPOSIT, type TestStack } from '../support/stack.ts';
import { type CrashingWorker, startCrashingWorker } from './fixtures/crashing-worker.ts';

describe('a worker killed after sending the recycle transaction', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let crashing: CrashingWorker | undefined;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack({ startWorker: false });
    tenant = await stack.api.createTenant();
  });
  afterAll(async () => {
    await crashing?.kill();
    await stack.close();
  });

  test('pays the deposit exactly once and records one RECYCLE_TRANSFER once another worker takes over', async () => {
    const minter = await stack.startWorker();
    const tokenId = await enrollAndMint(call, '04C0FFEE000101');
    await minter.stop();

    crashing = await startCrashingWorker(stack, 'recycle');

    const receiver = stack.chain.others[5]!.address;
    const provider = stack.chain.chain.provider;
    const balanceBefore = await provider.getBalance(receiver);
    const recycle = call('POST', '/v1/iaas/log-recycle', {
      tokenId,
      ...RECYCLING_SITE,
      rewardReceiver: receiver,
    });
    const txHash = await crashing.submitted();
    await crashing.kill();
    await stack.chain.chain.writer.waitForTransaction(txHash);
    assert.equal(
      await stack.chain.chain.reader.isRecycled(tokenId),
      true,
      'the transaction was mined before the crash',
    );
    const recorded = await stack.api.db.orm.em
      .getConnection()
      .execute(`select status from passports where token_id = ?`, [tokenId]);
    assert.equal(recorded[0]!.status, 'ACTIVE', 'the crashed worker recorded nothing');

    await stack.startWorker();
    const answer = await recycle;
    let result = answer.body;
    if (answer.status === 202) {
      for (let i = 0; i < 100 && result.status !== 'COMPLETED'; i++) {
        await new Promise((r) => setTimeout(r, 300));
        result = (await call('GET', `/v1/iaas/log-recycle/${tokenId}`)).body;
      }
      result = result.result;
    } else {
      assert.equal(answer.status, 201, answer.text);
    }
    assert.equal(result.transactionHash, txHash, 'the crashed attempt’s transaction is the recycle');
    assert.equal(result.releasedDeposit, `${TEST_DEPOSIT} ETH`);
    assert.equal((await provider.getBalance(receiver)) - balanceBefore, parseEther(TEST_DEPOSIT));
    const events = await stack.api.db.orm.em
      .getConnection()
      .execute(
        `select transaction_hash from supply_chain_events where token_id = ? and action = 'RECYCLE_TRANSFER'`,
        [tokenId],
      );
    assert.deepEqual(events, [{ transaction_hash: txHash }]);
    const outbox = await stack.api.db.orm.em
      .getConnection()
      .execute(`select count(*)::int as n from outbox_events where event_type = 'asset.recycled'`);
    assert.equal(outbox[0]!.n, 1);
  });
});
