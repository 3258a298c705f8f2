import {
  ApplicationFailure,
  defineQuery,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { searchAttributes } from '../src/temporal/search-attributes.ts';
import { chainStep, databaseStep, localDatabaseStep } from './activity-options.ts';
import { MINT_PROGRESS_QUERY, type MintInput, type MintProgress, type MintResult } from './mint-types.ts';

export const mintProgressQuery = defineQuery<MintProgress>(MINT_PROGRESS_QUERY);

const FINAL = ['SunRejected', 'ChipNotVerified'];
const localDatabase = proxyLocalActivities<Activities>(localDatabaseStep(FINAL));
/** Histories started before LOCAL_DATABASE_STEPS ran these steps as regular activities; they replay that way. */
const remoteDatabase = proxyActivities<Activities>(databaseStep(FINAL));
const LOCAL_DATABASE_STEPS = 'mint-local-database-steps';

const chain = proxyActivities<Activities>(chainStep());

/**
 * Mints one passport (id `mint:{env}:{chipUid}`):
 * 1. prepareMint — verify the tap, fix the token id, put the metadata on IPFS;
 * 2. mintOnChain — send the mint with the deposit, wait for confirmation;
 * 3. recordMint — passport row, MINT event, asset.minted to the outbox, one billable mint.
 * Every step is idempotent, so a crash anywhere resumes without minting twice. Steps 1 and 3 are local
 * activities (short, database and IPFS); the chain write is a regular, heartbeated activity.
 */
export async function mintPassport(input: MintInput): Promise<MintResult> {
  let progress: MintProgress = { step: 'preparing' };
  setHandler(mintProgressQuery, () => progress);
  const database = patched(LOCAL_DATABASE_STEPS) ? localDatabase : remoteDatabase;

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
  const recorded = await database.recordMint({
    scope: input.scope,
    chipUid: input.chipUid,
    tokenId: mined.tokenId,
    ownerWallet: prepared.ownerWallet,
    product: input.product,
    metadata: prepared.metadata,
    metadataUrl: prepared.metadataUrl,
    transactionHash: mined.transactionHash,
    blockNumber: mined.blockNumber,
    mintedAt: mined.mintedAt,
  });

  progress = {
    step: 'done',
    tokenId: mined.tokenId,
    transactionHash: mined.transactionHash,
    metadataUrl: prepared.metadataUrl,
  };
  return {
    dbId: recorded.dbId,
    tokenId: mined.tokenId,
    transactionHash: mined.transactionHash,
    ipfsUrl: prepared.metadataUrl,
    status: 'ACTIVE',
  };
}
