import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { describe, test } from 'vitest';
import { type MintInput, type MintProgress, RETRY_RECORDING_SIGNAL } from '../../src/processes/mint.ts';
import { searchAttributes } from '../../src/processes/search-attributes.ts';
import { mintPassport } from '../../workflows/index.ts';
import {
  attentionOf,
  domainRefusal,
  eventually,
  failingFirst,
  failureOf,
  type Stubs,
  scope,
  workflowHarness,
} from './support.ts';

const harness = workflowHarness();

const input: MintInput = {
  scope,
  chipUid: '04AA0000000001',
  product: {
    name: 'Jacket',
    description: '',
    image: null,
    gtin: '00012345600012',
    material: null,
    productId: null,
    customDppData: {},
  },
  sun: null,
  nfc: { cmac: null, urlPath: null, piccData: null },
  reference: 'mint:test:04AA0000000001',
};
const metadata = { name: 'Jacket' } as never;
const prepared = { tokenId: '7', ownerWallet: '0xowner', metadata, metadataUrl: 'ipfs://prepared' };
const mined = {
  tokenId: '7',
  transactionHash: '0xmint',
  blockNumber: 12,
  mintedAt: '2026-01-01T00:00:00.000Z',
  metadataUrl: 'ipfs://prepared',
};

function stubs(overrides: Stubs = {}): Stubs {
  return {
    prepareMint: () => prepared,
    mintOnChain: () => mined,
    recordMint: () => ({ dbId: 41 }),
    ...overrides,
  };
}

const progressOf = (workflowId: string) =>
  harness.env.client.workflow.getHandle(workflowId).query<MintProgress>('mintProgress');

describe('mint workflow', () => {
  test('prepares, mints on chain with the prepared token and records it; the token id is searchable', async () => {
    await harness.withWorker(stubs(), async ({ start, log }) => {
      const handle = await start(mintPassport, input);
      assert.deepEqual(await handle.result(), {
        dbId: 41,
        tokenId: '7',
        transactionHash: '0xmint',
        ipfsUrl: 'ipfs://prepared',
        status: 'ACTIVE',
      });
      assert.deepEqual(log.names(), ['prepareMint', 'mintOnChain', 'recordMint']);
      assert.deepEqual(log.inputsOf('mintOnChain'), [
        { chipUid: input.chipUid, tokenId: '7', to: '0xowner', metadataUrl: 'ipfs://prepared' },
      ]);
      assert.deepEqual(log.inputsOf('recordMint'), [
        {
          scope,
          chipUid: input.chipUid,
          tokenId: '7',
          ownerWallet: '0xowner',
          product: input.product,
          metadata,
          metadataUrl: 'ipfs://prepared',
          transactionHash: '0xmint',
          blockNumber: 12,
          mintedAt: mined.mintedAt,
        },
      ]);
      assert.deepEqual(await handle.query<MintProgress>('mintProgress'), {
        step: 'done',
        tokenId: '7',
        transactionHash: '0xmint',
        metadataUrl: 'ipfs://prepared',
      });
      const described = await handle.describe();
      assert.equal(described.typedSearchAttributes.get(searchAttributes.tokenId), '7');
    });
  });

  test('a mint adopted from an earlier run keeps the token URI on chain', async () => {
    const adopted = stubs({ mintOnChain: () => ({ ...mined, metadataUrl: 'ipfs://earlier' }) });
    await harness.withWorker(adopted, async ({ start, log }) => {
      const result = await (await start(mintPassport, input)).result();
      assert.equal(result.ipfsUrl, 'ipfs://earlier');
      assert.equal((log.inputsOf('recordMint')[0] as { metadataUrl: string }).metadataUrl, 'ipfs://earlier');
    });
  });

  test('a refused tap ends the mint at once: nothing goes to the chain', async () => {
    const refused = stubs({
      prepareMint: () => {
        throw ApplicationFailure.create({ type: 'SunRejected', message: 'the tap is a replay' });
      },
    });
    await harness.withWorker(refused, async ({ start, log }) => {
      assert.deepEqual(await failureOf((await start(mintPassport, input)).result()), {
        type: 'SunRejected',
        message: 'the tap is a replay',
      });
      assert.deepEqual(log.names(), ['prepareMint'], 'one attempt: a refusal is final');
    });
  });

  test('a chip that already holds another token on chain fails the mint without recording', async () => {
    await harness.withWorker(
      stubs({ mintOnChain: () => ({ ...mined, tokenId: '3' }) }),
      async ({ start, log }) => {
        assert.deepEqual(await failureOf((await start(mintPassport, input)).result()), {
          type: 'ChipAlreadyMinted',
          message: `Chip ${input.chipUid} already holds token 3 on chain.`,
        });
        assert.deepEqual(log.names(), ['prepareMint', 'mintOnChain']);
      },
    );
  });

  test('recording that keeps failing is retried in rounds until done; the workflow is flagged meanwhile', async () => {
    const recordMint = failingFirst(3, () => ({ dbId: 42 }), 'connection refused');
    await harness.withWorker(stubs({ recordMint }), async ({ start, log }) => {
      const handle = await start(mintPassport, input);
      // The server's time stands still until the test waits for the result: the workflow waits out its round.
      const { attention } = await eventually(
        () => progressOf(handle.workflowId),
        (progress) => progress.attention !== undefined,
      );
      assert.deepEqual(attention, {
        reason: 'record_failed',
        error: 'connection refused (call 3)',
        failedRounds: 1,
      });
      assert.equal(log.inputsOf('recordMint').length, 3, 'a round is three quick attempts');
      assert.equal(await attentionOf(harness.env, handle.workflowId), 'record_failed');
      assert.equal((await handle.result()).dbId, 42);
      assert.equal(log.inputsOf('recordMint').length, 4, 'the next round after the wait');
      assert.equal(await attentionOf(harness.env, handle.workflowId), undefined, 'the flag is removed');
      assert.equal((await progressOf(handle.workflowId)).attention, undefined);
    });
  });

  test('retryRecording starts the next round at once instead of after the wait', async () => {
    let refused = false;
    const refusingOnce: Stubs['recordMint'] = () => {
      if (refused) return { dbId: 43 };
      refused = true;
      throw domainRefusal('passport row refused');
    };
    await harness.withWorker(stubs({ recordMint: refusingOnce }), async ({ start, log }) => {
      const handle = await start(mintPassport, input);
      const flagged = await eventually(
        () => progressOf(handle.workflowId),
        (progress) => progress.attention !== undefined,
      );
      assert.equal(flagged.attention?.error, 'passport row refused');
      const before = await harness.env.currentTimeMs();
      await handle.signal(RETRY_RECORDING_SIGNAL);
      await log.waitFor('recordMint', 2);
      assert.ok((await harness.env.currentTimeMs()) - before < 20_000, 'no wait for the 20 s round timer');
      assert.equal((await handle.result()).dbId, 43);
    });
  });
});
