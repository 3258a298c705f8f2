import assert from 'node:assert/strict';
import { parseEther } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { companyCustodyAddress } from '../../src/accounts/wallets/custody.ts';
import { canonicalJsonBytes, ipfsUrl, JSON_CONTENT_TYPE } from '../../src/standards/ipfs/json.ts';
import type { TestTenant } from '../support/api.ts';
import { assertChainAgreesWithDatabase } from '../support/chain-agreement.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_DOC } from '../support/fixtures/products.ts';
import { startTestStack, TEST_DEPOSIT, type TestStack } from '../support/stack.ts';

describe('a chip that is already minted on chain when its mint workflow starts', () => {
  let stack: TestStack;
  let tenant: TestTenant;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant();
  });
  afterAll(() => stack.close());

  test('is recorded with the token and transaction already on chain, never minted twice', async () => {
    const uid = '04DEC0DE000001';
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    // What a former run leaves behind when it minted but never recorded the passport: its metadata on
    // IPFS and the token on chain pointing to it.
    const earlierMetadata = { name: 'Boot (first attempt)', chipUid: uid, custom_dpp_data: {} };
    const { cid } = await stack.deps.contentStore.put(canonicalJsonBytes(earlierMetadata), JSON_CONTENT_TYPE);
    const earlier = await stack.chain.chain.writer.mint({
      to: companyCustodyAddress(undefined, tenant.companyId, 'test'),
      tokenId: '900',
      metadataUri: ipfsUrl(cid),
      chipUid: uid,
      depositWei: parseEther(TEST_DEPOSIT),
    });

    const answer = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({ chipUid: uid, name: 'Boot', custom_dpp_data: { conformity_url: CONFORMITY_DOC } }),
    );
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.body.blockchain.tokenId, '900');
    assert.equal(answer.body.blockchain.transactionHash, earlier.txHash);
    assert.equal(await stack.chain.chain.reader.totalMinted(), 1n, 'exactly one token on chain');
    const rows = await stack.api.db.orm.em
      .getConnection()
      .execute<
        { token_id: string; transaction_hash: string; metadata_url: string; metadata_cache: unknown }[]
      >('select token_id, transaction_hash, metadata_url, metadata_cache from passports');
    // One truth for the token: the metadata on chain is the metadata recorded, not the second request's.
    assert.deepEqual(rows, [
      {
        token_id: '900',
        transaction_hash: earlier.txHash,
        metadata_url: await stack.chain.chain.reader.tokenURI('900'),
        metadata_cache: earlierMetadata,
      },
    ]);
    assert.equal(answer.body.blockchain.ipfsUrl, ipfsUrl(cid));
    await assertChainAgreesWithDatabase(stack, uid);
  });
});
