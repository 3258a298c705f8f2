import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { assertChainAgreesWithDatabase } from '../support/chain-agreement.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_DOC } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { type CrashingWorker, startCrashingWorker } from './fixtures/crashing-worker.ts';

describe('a worker killed after sending the mint transaction', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let crashing: CrashingWorker | undefined;

  beforeAll(async () => {
    stack = await startTestStack({ startWorker: false });
    tenant = await stack.api.createTenant();
  });
  afterAll(async () => {
    await crashing?.kill();
    await stack.close();
  });

  test('leaves exactly one token once another worker takes over', async () => {
    crashing = await startCrashingWorker(stack, 'mint');

    const uid = '04C0FFEE000001';
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    await call('POST', '/v1/dpp/enroll', { chipUid: uid });
    const mint = call(
      'POST',
      '/v1/dpp/mint',
      mintBody({ chipUid: uid, name: 'Boot', custom_dpp_data: { conformity_url: CONFORMITY_DOC } }),
    );
    const txHash = await crashing.submitted();
    await crashing.kill();
    assert.ok(
      await stack.chain.chain.reader.findTokenByChip(uid),
      'the transaction was mined before the crash',
    );

    await stack.startWorker();
    const answer = await mint;
    let result = answer.body;
    if (answer.status === 202) {
      for (let i = 0; i < 100 && result.status !== 'COMPLETED'; i++) {
        await new Promise((r) => setTimeout(r, 300));
        result = (await call('GET', `/v1/dpp/mint/${uid}`)).body;
      }
      result = result.result;
    } else {
      assert.equal(answer.status, 201, answer.text);
    }
    assert.equal(result.blockchain.transactionHash, txHash, 'the crashed attempt’s transaction is the mint');
    assert.equal(await stack.chain.chain.reader.totalMinted(), 1n, 'exactly one token on chain');
    const rows = await stack.api.db.orm.em
      .getConnection()
      .execute('select count(*)::int as n from passports');
    assert.equal(rows[0]!.n, 1);
    await assertChainAgreesWithDatabase(stack, uid);
  });
});
