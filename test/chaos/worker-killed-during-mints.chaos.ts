import assert from 'node:assert/strict';
import { Interface, type InterfaceAbi } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const MINTS = 100;

describe('the worker is killed -9 during 100 concurrent mints, then a new worker starts', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let worker: WorkerProcess | undefined;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    // The production worker process (worker/main.ts) on the stack's Temporal dev server, chain and database.
    stack = await startTestStack({
      startWorker: false,
      dispatcher: false,
      apiClient: 'native',
      mintWaitMs: 5000,
    });
    tenant = await stack.api.createTenant('Acme Apparel');
  });
  afterAll(async () => {
    await worker?.stop();
    await stack.close();
  });

  test('every caller gets 201 or 202 and a COMPLETED status; 100 passports, 100 tokens, none twice', async () => {
    const chips = Array.from({ length: MINTS }, (_, i) => `04C4A050${String(i).padStart(6, '0')}`);
    worker = await startWorkerProcess(stack);
    const answers = chips.map((chipUid) =>
      call('POST', '/v1/dpp/mint', mintBody({ chipUid, name: `Chaos item ${chipUid}` })),
    );
    // Kill it while mints are everywhere: queued, preparing, on chain, recording.
    await new Promise((resolve) => setTimeout(resolve, 700));
    process.kill(worker.pid, 'SIGKILL');
    const [atKill] = await stack.api.db.orm.em
      .fork()
      .execute<{ n: number }[]>('select count(*)::int as n from passports');
    assert.ok(atKill!.n < MINTS, 'the worker died with mints unfinished (else this scenario tested nothing)');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    worker = await startWorkerProcess(stack);

    const statuses = (await Promise.all(answers)).map((answer) => answer.status);
    assert.ok(
      statuses.every((status) => status === 201 || status === 202),
      `answers: ${JSON.stringify(statuses)}`,
    );
    for (const chipUid of chips) {
      let status: string | undefined;
      for (let i = 0; i < 600 && status !== 'COMPLETED'; i++) {
        const body = (await call('GET', `/v1/dpp/mint/${chipUid}`)).body;
        status = body.status;
        assert.notEqual(status, 'FAILED', `${chipUid}: ${JSON.stringify(body)}`);
        if (status !== 'COMPLETED') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(status, 'COMPLETED', chipUid);
    }

    const [passports] = await stack.api.db.orm.em
      .fork()
      .execute<{ n: number; tokens: number; chips: number }[]>(
        'select count(*)::int as n, count(distinct token_id)::int as tokens, count(distinct chip_uid)::int as chips from passports',
      );
    assert.deepEqual(passports, { n: MINTS, tokens: MINTS, chips: MINTS });
    const chain = stack.chain.chain;
    assert.equal(await chain.reader.totalMinted(), BigInt(MINTS), `${MINTS} tokens on chain`);
    // No chip minted twice and no token twice: every Minted event is a different token and chip.
    const contract = new Interface(chain.artifact.abi as InterfaceAbi);
    const minted = contract.getEvent('Minted')!;
    const logs = await chain.provider.getLogs({
      address: chain.contractAddress,
      fromBlock: 0,
      toBlock: 'latest',
      topics: [minted.topicHash],
    });
    assert.equal(logs.length, MINTS, 'one Minted event per passport');
    assert.equal(new Set(logs.map((l) => l.topics[1])).size, MINTS);
    assert.equal(new Set(logs.map((l) => l.topics[3])).size, MINTS);
    // Nothing left waiting in the node, and no nonce skipped: the next nonce follows the last mined one.
    const signer = chain.signerAddress;
    const [mined, pending] = await Promise.all([
      chain.provider.getTransactionCount(signer, 'latest'),
      chain.provider.getTransactionCount(signer, 'pending'),
    ]);
    assert.equal(pending, mined, 'no transaction stuck behind a nonce gap');
  });
});
