import {
  ApplicationFailure,
  defineQuery,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import {
  MINT_PROGRESS_QUERY,
  type MintInput,
  type MintProgress,
  type MintResult,
} from '../src/processes/mint.ts';
import { searchAttributes } from '../src/processes/search-attributes.ts';
import { chainStep, localDatabaseStep } from './activity-options.ts';
import { recordUntilDone } from './record-until-done.ts';

export const mintProgressQuery = defineQuery<MintProgress>(MINT_PROGRESS_QUERY);

const FINAL = ['SunRejected', 'ChipNotVerified', 'InvalidMintData'];
const database = proxyLocalActivities<Activities>(localDatabaseStep(FINAL));
const chain = proxyActivities<Activities>(chainStep());
/** A round of recording: three quick attempts, then the workflow flags itself and waits for the next round. */
const recording = proxyLocalActivities<Activities>(localDatabaseStep(FINAL, { maximumAttempts: 3 }));

/**
 * Mints one passport (id `mint:{env}:{chipUid}`):
 * 1. prepareMint — verify the tap, fix the token id, put the metadata on IPFS;
 * 2. mintOnChain — send the mint with the deposit, wait for confirmation;
 * 3. recordMint — passport row, MINT event, asset.minted to the outbox, one billable mint. Once the
 *    token is on chain the mint is never abandoned: if recording keeps failing, the workflow flags itself
 *    (`DppAttention = "record_failed"`, the progress query says why) and tries again after a wait (at most
 *    10 minutes), or at once on the `retryRecording` signal, until the passport is recorded
 *    (record-until-done.ts).
 * Every step is idempotent, so a crash anywhere resumes without minting twice. Steps 1 and 3 are local
 * activities (short, database and IPFS); the chain write is a regular, heartbeated activity.
 */
export async function mintPassport(input: MintInput): Promise<MintResult> {
  let progress: MintProgress = { step: 'preparing' };
  setHandler(mintProgressQuery, () => progress);

  const prepared = await database.prepareMint(input);
  upsertSearchAttributes([{ key: searchAttributes.tokenId, value: prepared.tokenId }]);

  progress = { step: 'minting', tokenId: prepared.tokenId, metadataUrl: prepared.metadataUrl };
  const mined = await chain.mintOnChain({
    chipUid: input.chipUid,
    tokenId: prepared.tokenId,
    to: prepared.ownerWallet,
    metadataUrl: prepared.metadataUrl,
  });
  if (mined.tokenId !== prepared.tokenId) {
    throw ApplicationFailure.nonRetryable(
      `Chip ${input.chipUid} already holds token ${mined.tokenId} on chain.`,
      'ChipAlreadyMinted',
    );
  }

  progress = { step: 'recording', tokenId: mined.tokenId, transactionHash: mined.transactionHash };
  // The token URI on chain is the truth: a mint adopted from an earlier run keeps that run's metadata.
  const metadataUrl = mined.metadataUrl ?? prepared.metadataUrl;
  const record = {
    scope: input.scope,
    chipUid: input.chipUid,
    tokenId: mined.tokenId,
    ownerWallet: prepared.ownerWallet,
    product: input.product,
    metadata: prepared.metadata,
    metadataUrl,
    transactionHash: mined.transactionHash,
    blockNumber: mined.blockNumber,
    mintedAt: mined.mintedAt,
  };
  const recorded = await recordUntilDone(
    () => recording.recordMint(record),
    (attention) => {
      progress = {
        step: 'recording',
        tokenId: mined.tokenId,
        transactionHash: mined.transactionHash,
        attention,
      };
    },
  );

  progress = { step: 'done', tokenId: mined.tokenId, transactionHash: mined.transactionHash, metadataUrl };
  return {
    dbId: recorded.dbId,
    tokenId: mined.tokenId,
    transactionHash: mined.transactionHash,
    ipfsUrl: metadataUrl,
    status: 'ACTIVE',
  };
}
