import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { CallResult, TestTenant } from '../support/api.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const ROUNDS = 20;

/**
 * Two companies mint the same chip, new to both, at the same moment (shape A: the tap enrols the chip in the
 * mint). One chip has one passport, so exactly one of them mints it; the other must be refused without
 * learning anything of that mint: before the fix it joined the first company's workflow and was answered
 * 201 with that company's token id, transaction hash and database id.
 */
describe('two companies minting the same new chip at once', () => {
  let stack: TestStack;
  let first: TestTenant;
  let second: TestTenant;
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);

  beforeAll(async () => {
    stack = await startTestStack();
    first = await stack.api.createTenant('First Brand');
    second = await stack.api.createTenant('Second Brand');
  });
  afterAll(() => stack.close());

  const mint = (tenant: TestTenant, uid: string) => {
    return stack.api.call('POST', '/v1/dpp/mint', { key: tenant.testKey, body: mintBody({ chipUid: uid }) });
  };

  test(`never answers a company with another's mint (${ROUNDS} rounds)`, async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const uid = `04C0DE5A${String(round).padStart(6, '0')}`;
      const answers = await Promise.all([mint(first, uid), mint(second, uid)]);
      const tenants = [first, second];
      const winners = answers.flatMap((answer, i) => (answer.status === 201 ? [i] : []));
      assert.equal(
        winners.length,
        1,
        `round ${round}: ${answers.map((a) => `${a.status} ${a.text}`).join(' | ')}`,
      );
      const w = winners[0]!;
      const winner = tenants[w]!;
      const loser = tenants[1 - w]!;
      const won: CallResult = answers[w]!;
      const lost: CallResult = answers[1 - w]!;
      outcomes.push(w === 0 ? 'first' : 'second');

      // The loser: the chip is another account's; nothing of the winner's mint in the answer.
      assert.equal(lost.status, 409, `round ${round}: ${lost.text}`);
      assert.equal(lost.body.code, 'chip_enrolled_elsewhere', lost.text);
      const { tokenId, transactionHash } = won.body.blockchain;
      const dbId = won.body.data.dbId;
      for (const secret of [transactionHash, won.body.blockchain.ipfsUrl])
        assert.ok(!lost.text.includes(secret), `round ${round}: the 409 carries ${secret}: ${lost.text}`);
      assert.deepEqual(Object.keys(lost.body).sort(), [
        'code',
        'detail',
        'instance',
        'requestId',
        'status',
        'success',
        'title',
        'type',
      ]);
      assert.equal(lost.body.detail, `Chip ${uid} is already enrolled by another account.`);

      // The winner's answer is its own passport: row, chain and chip all agree, and all are the winner's.
      const rows = await sql<{ id: number; company_id: string; token_id: string; transaction_hash: string }>(
        'select id, company_id, token_id, transaction_hash from passports where chip_uid = ?',
        [uid],
      );
      assert.deepEqual(rows, [
        { id: dbId, company_id: winner.companyId, token_id: tokenId, transaction_hash: transactionHash },
      ]);
      assert.equal(await stack.chain.chain.reader.findTokenByChip(uid), tokenId);
      const chips = await sql<{ company_id: string }>('select company_id from chips where chip_uid = ?', [
        uid,
      ]);
      assert.deepEqual(chips, [{ company_id: winner.companyId }]);

      // The status resource: the winner's mint is the winner's to see; the loser finds none.
      const loserStatus = await stack.api.call('GET', `/v1/dpp/mint/${uid}`, { key: loser.testKey });
      assert.equal(loserStatus.status, 404, loserStatus.text);
      assert.equal(loserStatus.body.code, 'mint_not_found');
      const winnerStatus = await stack.api.call('GET', `/v1/dpp/mint/${uid}`, { key: winner.testKey });
      assert.equal(winnerStatus.body.status, 'COMPLETED', winnerStatus.text);
      assert.equal(winnerStatus.body.result.blockchain.tokenId, tokenId);

      // A retry by the loser is refused the same way (the run is completed now).
      const again = await mint(loser, uid);
      assert.equal(again.status, 409, again.text);
      assert.equal(again.body.code, 'chip_enrolled_elsewhere');
    }
    assert.equal(await stack.chain.chain.reader.totalMinted(), BigInt(ROUNDS), 'one token per chip');
    console.log(`winners per round: ${outcomes.join(' ')}`);
  });
});
