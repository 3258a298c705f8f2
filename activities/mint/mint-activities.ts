import { ApplicationFailure, Context } from '@temporalio/activity';
import { formatEther } from 'ethers';
import { isChainRevert } from '../../src/chain/errors.ts';
import type { SunPayload } from '../../src/chips/verify-tap.ts';
import { verifyTap } from '../../src/chips/verify-tap.ts';
import { Chip, type Passport } from '../../src/db/entities/index.ts';
import { scopedEntityManager, type TenantScope } from '../../src/db/tenant-scope.ts';
import { digitalLink } from '../../src/gs1/digital-link.ts';
import { canonicalJsonBytes, ipfsUrl, JSON_CONTENT_TYPE } from '../../src/ipfs/json.ts';
import {
  buildMetadata,
  type MintProduct,
  type NfcProof,
  type PassportMetadata,
} from '../../src/passports/metadata.ts';
import { recordMint } from '../../src/passports/record-mint.ts';
import { reserveTokenId } from '../../src/passports/token-ids.ts';
import { companyCustodyAddress } from '../../src/wallets/custody.ts';
import type { EnvironmentDeps } from '../deps.ts';

/** Activities of the mint workflow. Each one is safe to run again after a crash. */
export function mintActivities(deps: EnvironmentDeps) {
  const scoped = (scope: TenantScope) => {
    if (scope.environment !== deps.environment) {
      throw ApplicationFailure.nonRetryable(
        `task for ${scope.environment} reached the ${deps.environment} worker`,
      );
    }
    return scopedEntityManager(deps.orm.em, scope);
  };

  return {
    async verifyMintTap(input: { scope: TenantScope; chipUid: string; sun: SunPayload; reference: string }) {
      const verdict = await verifyTap(scoped(input.scope), deps.secretBox, input.scope, {
        chipUid: input.chipUid,
        sun: input.sun,
        reference: input.reference,
      });
      if (!verdict.authentic) {
        throw ApplicationFailure.create({
          message: verdict.message,
          type: 'SunRejected',
          nonRetryable: true,
          details: [{ reason: verdict.reason, counter: verdict.counter }],
        });
      }
      return { counter: verdict.counter };
    },

    /** Shape B mints carry no tap: the chip must have shown a genuine one before. */
    async checkMintAuthorization(input: { scope: TenantScope; chipUid: string }) {
      const chip = await scoped(input.scope).findOne(Chip, { chipUid: input.chipUid });
      if (!chip?.lastVerifiedAt) {
        throw ApplicationFailure.create({
          message: `Chip ${input.chipUid} has no verified tap yet: verify it (POST /v1/dpp/verify-chip) before a mint without nfcData.`,
          type: 'ChipNotVerified',
          nonRetryable: true,
        });
      }
    },

    async reserveToken(input: { scope: TenantScope; chipUid: string }) {
      const minted = await deps.chain.findMintByChip(input.chipUid);
      const tokenId = minted ? minted.tokenId : await reserveTokenId(deps.orm.em, deps.environment);
      const ownerWallet = companyCustodyAddress(
        deps.custodyMasterSecret,
        input.scope.companyId,
        deps.environment,
      );
      return { tokenId, ownerWallet };
    },

    async storeMetadata(input: { chipUid: string; tokenId: string; product: MintProduct; nfc: NfcProof }) {
      const metadata = buildMetadata({
        product: input.product,
        chipUid: input.chipUid,
        nfc: input.nfc,
        externalUrl: digitalLink(deps.publicBaseUrl, input.product.gtin, input.tokenId),
      });
      const { cid } = await deps.contentStore.put(canonicalJsonBytes(metadata), JSON_CONTENT_TYPE);
      return { metadata, metadataUrl: ipfsUrl(cid) };
    },

    /**
     * Sends the mint with the deposit and waits for its confirmations. The hash is heartbeated as soon as
     * the node accepts it, so a retry after a crash waits for that transaction instead of sending again; a
     * chip already minted on chain is reported as such, never minted twice.
     */
    async sendMint(input: { chipUid: string; tokenId: string; to: string; metadataUrl: string }) {
      const existing = await deps.chain.findMintByChip(input.chipUid);
      if (existing) return { tokenId: existing.tokenId, transactionHash: existing.txHash };
      const context = Context.current();
      const sentBefore = context.info.heartbeatDetails as { transactionHash?: string } | undefined;
      if (sentBefore?.transactionHash) {
        const outcome = await deps.chain.getTransactionOutcome(sentBefore.transactionHash);
        if (outcome.status === 'mined' || outcome.status === 'pending') {
          return { tokenId: input.tokenId, transactionHash: sentBefore.transactionHash };
        }
      }
      let details: { transactionHash?: string } = {};
      const beat = setInterval(() => context.heartbeat(details), 2_000);
      try {
        const result = await deps.chain.mint(
          {
            to: input.to,
            tokenId: input.tokenId,
            metadataUri: input.metadataUrl,
            chipUid: input.chipUid,
            depositWei: deps.depositWei,
          },
          {
            onSubmitted: async (transactionHash) => {
              details = { transactionHash };
              context.heartbeat(details);
              await deps.hooks?.afterMintSubmitted?.(transactionHash);
            },
          },
        );
        return { tokenId: result.tokenId.toString(), transactionHash: result.txHash };
      } catch (error) {
        if (isChainRevert(error, 'ChipAlreadyMinted')) {
          const minted = await deps.chain.findMintByChip(input.chipUid);
          if (minted) return { tokenId: minted.tokenId, transactionHash: minted.txHash };
        }
        if (isChainRevert(error)) {
          throw ApplicationFailure.create({
            message: error.message,
            type: 'ChainRejected',
            nonRetryable: true,
          });
        }
        throw error;
      } finally {
        clearInterval(beat);
      }
    },

    async confirmMint(input: { transactionHash: string }) {
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), 2_000);
      const mined = await deps.chain
        .waitForTransaction(input.transactionHash)
        .finally(() => clearInterval(beat));
      const block = await deps.chain.provider.getBlock(mined.blockNumber);
      return {
        blockNumber: mined.blockNumber,
        mintedAt: new Date((block?.timestamp ?? Math.floor(Date.now() / 1000)) * 1000).toISOString(),
      };
    },

    async recordMint(input: {
      scope: TenantScope;
      chipUid: string;
      tokenId: string;
      ownerWallet: string;
      product: MintProduct;
      metadata: PassportMetadata;
      metadataUrl: string;
      transactionHash: string;
      blockNumber: number;
      mintedAt: string;
    }) {
      const passport: Passport = await recordMint(scoped(input.scope), input.scope, {
        ...input,
        mintedAt: new Date(input.mintedAt),
        depositWei: deps.depositWei.toString(),
        depositDecimal: formatEther(deps.depositWei),
        contractAddress: deps.chain.contractAddress,
        platformAddress: deps.chain.signerAddress,
      });
      return { dbId: passport.id };
    },
  };
}
