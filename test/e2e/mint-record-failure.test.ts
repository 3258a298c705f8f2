import assert from 'node:assert/strict';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { RETRY_RECORDING_SIGNAL } from '../../src/processes/mint.ts';
import { searchAttributes } from '../../src/processes/search-attributes.ts';
import { taskQueueFor } from '../../src/processes/task-queues.ts';
import type { mintPassport } from '../../workflows/mint.ts';
import type { TestTenant } from '../support/api.ts';
import { assertChainAgreesWithDatabase } from '../support/chain-agreement.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { sunTap } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

describe('a mint whose recording fails after the chain write', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);

  beforeAll(async () => {
    stack = await startTestStack({ mintWaitMs: 2000 });
    tenant = await stack.api.createTenant('Acme Apparel');
  });
  afterAll(() => stack.close());

  test('is never left behind: flagged for operators, retried, and recorded once the cause is fixed', async () => {
    const uid = '04BADDB0000001';
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    // A real refusal by the database for every new passport, as a broken migration or a full disk would.
    await sql('alter table passports add constraint refuse_new_passports check (false) not valid');

    const answer = await call('POST', '/v1/dpp/mint', mintBody({ chipUid: uid }));
    assert.equal(answer.status, 202, answer.text);

    // A round is three attempts a second or two apart; then the workflow flags itself.
    let status = await call('GET', `/v1/dpp/mint/${uid}`);
    for (let i = 0; i < 100 && !status.body.progress?.attention; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await call('GET', `/v1/dpp/mint/${uid}`);
    }
    assert.equal(status.body.status, 'RUNNING', 'not FAILED: the token is on chain');
    assert.equal(status.body.progress.step, 'recording');
    assert.equal(status.body.progress.attention.reason, 'record_failed');
    assert.match(status.body.progress.attention.error, /refuse_new_passports/);
    const tokenId: string = status.body.progress.tokenId;
    assert.equal(await stack.chain.chain.reader.findTokenByChip(uid), tokenId, 'the token is on chain');
    assert.deepEqual(await sql('select id from passports where chip_uid = ?', [uid]), []);

    const handle = stack.temporal.client.workflow.getHandle<typeof mintPassport>(`mint:test:${uid}`);
    const described = await handle.describe();
    assert.equal(described.typedSearchAttributes.get(searchAttributes.attention), 'record_failed');

    // The operator fixes the cause and asks for a retry instead of waiting for the next round.
    await sql('alter table passports drop constraint refuse_new_passports');
    await handle.signal(RETRY_RECORDING_SIGNAL);
    const result = await handle.result();
    assert.equal(result.tokenId, tokenId);
    assert.equal(await assertChainAgreesWithDatabase(stack, uid), tokenId);
    assert.equal(await stack.chain.chain.reader.totalMinted(), 1n, 'still exactly one token');
    assert.equal((await handle.describe()).typedSearchAttributes.get(searchAttributes.attention), undefined);
    const done = await call('GET', `/v1/dpp/mint/${uid}`);
    assert.equal(done.body.status, 'COMPLETED');
    assert.equal(done.body.result.blockchain.tokenId, tokenId);
  });

  test('input PostgreSQL cannot store fails the mint before anything reaches the chain', async () => {
    const uid = '04BADDB0000002';
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    const before = await stack.chain.chain.reader.totalMinted();
    const tap = sunTap(uid, 1);
    // Straight to the workflow, as any caller other than the (validating) API could start it.
    const handle = await stack.temporal.client.workflow.start<typeof mintPassport>('mintPassport', {
      workflowId: `mint:test:${uid}`,
      taskQueue: taskQueueFor(stack.api.config.temporal.taskQueuePrefix, 'test'),
      args: [
        {
          scope: { companyId: tenant.companyId, environment: 'test' },
          chipUid: uid,
          product: {
            name: 'Nul\u0000name',
            description: '',
            image: null,
            gtin: null,
            material: null,
            productId: null,
            customDppData: {},
          },
          sun: { piccData: tap.piccData, cmac: tap.cmac },
          nfc: { cmac: tap.cmac, urlPath: null, piccData: tap.piccData },
          reference: `mint:test:${uid}`,
        },
      ],
    });
    await assert.rejects(handle.result(), (error: unknown) => {
      assert.ok(error instanceof WorkflowFailedError);
      assert.match(String(error.cause?.message), /name cannot be stored \(nul character\)/);
      return true;
    });
    assert.equal(await stack.chain.chain.reader.totalMinted(), before, 'nothing was minted');
    assert.equal(await stack.chain.chain.reader.findTokenByChip(uid), null);
  });
});
