import {
  ApplicationFailure,
  defineQuery,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { searchAttributes } from '../src/temporal/search-attributes.ts';
import { MINT_PROGRESS_QUERY, type MintInput, type MintProgress, type MintResult } from './mint-types.ts';

export const mintProgressQuery = defineQuery<MintProgress>(MINT_PROGRESS_QUERY);

const quick = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '30 seconds',
    maximumAttempts: 10,
    nonRetryableErrorTypes: ['SunRejected', 'DomainError'],
  },
});

// Chain activities heartbeat while they wait, so a worker that dies mid-transaction is noticed in seconds.
const chain = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '2 seconds',
    maximumInterval: '1 minute',
    maximumAttempts: 20,
    nonRetryableErrorTypes: ['ChainRejected', 'DomainError'],
  },
});

/**
 * Mints one passport: verify the tap → reserve the token id → metadata to IPFS → mint transaction with
 * the deposit → confirmation → passport, MINT event, asset.minted and billing usage in the database.
 * Id `mint:{env}:{chipUid}`; each step is an idempotent activity, so a crash anywhere resumes safely.
 */
export async function mintPassport(input: MintInput): Promise<MintResult> {
  let progress: MintProgress = { step: 'verifying_tap' };
  setHandler(mintProgressQuery, () => progress);

  if (input.sun) {
    await quick.verifyMintTap({
      scope: input.scope,
      chipUid: input.chipUid,
      sun: input.sun,
      reference: input.reference,
    });
  } else {
    await quick.checkMintAuthorization({ scope: input.scope, chipUid: input.chipUid });
  }
  progress = { step: 'reserving_token' };
  const { tokenId, ownerWallet } = await quick.reserveToken({ scope: input.scope, chipUid: input.chipUid });
  upsertSearchAttributes([{ key: searchAttributes.tokenId, value: tokenId }]);

  progress = { step: 'storing_metadata', tokenId };
  const stored = await quick.storeMetadata({
    chipUid: input.chipUid,
    tokenId,
    product: input.product,
    nfc: input.nfc,
  });

  progress = { step: 'minting', tokenId, metadataUrl: stored.metadataUrl };
  const sent = await chain.sendMint({
    chipUid: input.chipUid,
    tokenId,
    to: ownerWallet,
    metadataUrl: stored.metadataUrl,
  });
  if (sent.tokenId !== tokenId) {
    throw ApplicationFailure.nonRetryable(
      `Chip ${input.chipUid} already holds token ${sent.tokenId} on chain.`,
      'ChipAlreadyMinted',
    );
  }

  progress = { step: 'confirming', tokenId, transactionHash: sent.transactionHash };
  const mined = await chain.confirmMint({ transactionHash: sent.transactionHash });

  progress = { step: 'recording', tokenId, transactionHash: sent.transactionHash };
  const recorded = await quick.recordMint({
    scope: input.scope,
    chipUid: input.chipUid,
    tokenId,
    ownerWallet,
    product: input.product,
    metadata: stored.metadata,
    metadataUrl: stored.metadataUrl,
    transactionHash: sent.transactionHash,
    blockNumber: mined.blockNumber,
    mintedAt: mined.mintedAt,
  });

  const result: MintResult = {
    dbId: recorded.dbId,
    tokenId,
    transactionHash: sent.transactionHash,
    ipfsUrl: stored.metadataUrl,
    status: 'ACTIVE',
  };
  progress = {
    step: 'done',
    tokenId,
    transactionHash: sent.transactionHash,
    metadataUrl: stored.metadataUrl,
  };
  return result;
}
