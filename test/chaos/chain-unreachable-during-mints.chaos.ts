import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const MINTS = 30;
const OUTAGE_MS = 6_000;

describe('the chain node is unreachable for a while during mints', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let proxy: TcpProxy;
  let worker: WorkerProcess | undefined;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack({
      startWorker: false,
      dispatcher: false,
      apiClient: 'native',
      mintWaitMs: 1000,
    });
    tenant = await stack.api.createTenant('Acme Apparel');
    // The worker reaches anvil only through a relay the test can cut, as a network outage would.
    proxy = await startTcpProxy(Number(new URL(stack.chain.anvil.rpcUrl).port));
    worker = await startWorkerProcess(stack, { rpcUrl: proxy.url });
  });
  afterAll(async () => {
    await worker?.stop();
    await proxy?.close();
    await stack.close();
  });

  test('mints wait for the node and complete once it is back; no nonce gap, nothing minted twice', async () => {
    const chips = Array.from({ length: MINTS }, (_, i) => `04C4A1A0${String(i).padStart(6, '0')}`);
    const answers = chips.map((chipUid, i) => {
      const body = mintBody({ chipUid, name: `Outage item ${i}` });
      const mint = () => call('POST', '/v1/dpp/mint', body);
      // Half before the outage, half during it.
      return i < MINTS / 2 ? mint() : new Promise((resolve) => setTimeout(resolve, 400)).then(mint);
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    proxy.cut();
    const cutAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const [duringOutage] = await stack.api.db.orm.em
      .fork()
      .execute<{ n: number }[]>('select count(*)::int as n from passports');
    assert.ok(duringOutage!.n < MINTS, 'mints were waiting on the node (else this scenario tested nothing)');
    proxy.restore();

    for (const answer of await Promise.all(answers)) {
      assert.ok(answer.status === 201 || answer.status === 202, `${answer.status} ${answer.text}`);
    }
    for (const chipUid of chips) {
      let body: { status?: string } = {};
      for (let i = 0; i < 900 && body.status !== 'COMPLETED'; i++) {
        body = (await call('GET', `/v1/dpp/mint/${chipUid}`)).body;
        assert.notEqual(body.status, 'FAILED', `${chipUid}: ${JSON.stringify(body)}`);
        if (body.status !== 'COMPLETED') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(
        body.status,
        'COMPLETED',
        `${chipUid} ${Math.round((Date.now() - cutAt) / 1000)} s after the cut`,
      );
    }
    const chain = stack.chain.chain;
    assert.equal(await chain.reader.totalMinted(), BigInt(MINTS));
    const [recorded] = await stack.api.db.orm.em
      .fork()
      .execute<{ n: number; tokens: number }[]>(
        'select count(*)::int as n, count(distinct token_id)::int as tokens from passports',
      );
    assert.deepEqual(recorded, { n: MINTS, tokens: MINTS });
    const [mined, pending] = await Promise.all([
      chain.provider.getTransactionCount(chain.signerAddress, 'latest'),
      chain.provider.getTransactionCount(chain.signerAddress, 'pending'),
    ]);
    assert.equal(pending, mined, 'no transaction stuck behind a nonce gap');
  });
});
