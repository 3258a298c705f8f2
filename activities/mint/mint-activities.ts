import { Context } from '@temporalio/activity';
import { formatEther } from 'ethers';
import { companyCustodyAddress } from '../../src/accounts/wallets/custody.ts';
import { isChainRevert } from '../../src/adapters/chain/errors.ts';
import { type MintedPassport, recordMint } from '../../src/lifecycle/mint/record-mint.ts';
import { reserveTokenId } from '../../src/lifecycle/mint/token-ids.ts';
import { buildMetadata } from '../../src/passport/record/metadata.ts';
import type { TenantScope } from '../../src/platform/db/tenant-scope.ts';
import type { MintInput } from '../../src/processes/mint.ts';
import { digitalLink } from '../../src/standards/gs1/digital-link.ts';
import { computeCid } from '../../src/standards/ipfs/cid.ts';
import { canonicalJsonBytes, ipfsUrl, JSON_CONTENT_TYPE } from '../../src/standards/ipfs/json.ts';
import { runChainWrite } from '../chain-write.ts';
import { type EnvironmentDeps, scopedFor } from '../deps.ts';
import { authorizeMintTap } from './authorize-tap.ts';
import { assertConformity, assertRecordable, loadMetadata } from './metadata-checks.ts';

/** Activities of the mint workflow. Each one is safe to run again after a crash. */
export function mintActivities(deps: EnvironmentDeps) {
  const scoped = (scope: TenantScope) => scopedFor(deps, scope);

  return {
    /**
     * Authorises the mint (tap), fixes the token id (the one already on chain for this chip, if a former run
     * minted it, else the next of the environment) and stores the metadata, which names the passport's
     * GS1 Digital Link, on IPFS.
     */
    async prepareMint(input: MintInput) {
      assertRecordable(input.product);
      // The chain lookup does not depend on the tap: both round trips at once (a refused tap wins).
      const [, onChain] = await Promise.all([
        authorizeMintTap(scoped(input.scope), deps.secretBox, input),
        deps.chain.reader.findMintByChip(input.chipUid),
      ]);
      const ownerWallet = companyCustodyAddress(
        deps.custodyMasterSecret,
        input.scope.companyId,
        deps.environment,
      );
      if (onChain) {
        // Minted by an earlier run that never recorded it: that token and the metadata it points to stand.
        const metadataUrl = await deps.chain.reader.tokenURI(onChain.tokenId);
        const metadata = await loadMetadata(deps.contentStore, metadataUrl);
        return { tokenId: onChain.tokenId, ownerWallet, metadata, metadataUrl };
      }
      assertConformity(input.product);
      const tokenId = await reserveTokenId(deps.orm.em, deps.environment);
      const metadata = buildMetadata({
        product: input.product,
        chipUid: input.chipUid,
        nfc: input.nfc,
        externalUrl: digitalLink(deps.publicBaseUrl, deps.environment, input.product.gtin, tokenId),
      });
      const { cid } = await deps.contentStore.put(canonicalJsonBytes(metadata), JSON_CONTENT_TYPE);
      return { tokenId, ownerWallet, metadata, metadataUrl: ipfsUrl(cid) };
    },

    /**
     * Sends the mint with the deposit and waits for its confirmations. The hash is heartbeated as soon as the
     * node accepts it, so a retry after a crash waits for that transaction instead of sending another; a chip
     * already minted on chain is reported, never minted twice.
     */
    async mintOnChain(input: { chipUid: string; tokenId: string; to: string; metadataUrl: string }) {
      const mined =
        (tokenId: string, transactionHash: string, metadataUrl = input.metadataUrl) =>
        async (blockNumber: number) => ({
          tokenId,
          transactionHash,
          blockNumber,
          mintedAt: await deps.chain.reader.blockTime(blockNumber),
          metadataUrl,
        });
      const adoptExisting = async () => {
        const existing = await deps.chain.reader.findMintByChip(input.chipUid);
        if (!existing) return undefined;
        await deps.chain.writer.waitForTransaction(existing.txHash);
        const metadataUrl = await deps.chain.reader.tokenURI(existing.tokenId);
        return mined(existing.tokenId, existing.txHash, metadataUrl)(existing.blockNumber);
      };
      // prepareMint has just looked the chip up, so a first attempt does not ask again: the contract refuses a
      // second mint of the chip or of the token id, and that refusal adopts the mint on chain (below). Nor does
      // it look for a transaction under its operation key: no earlier attempt can have sent one.
      const firstAttempt = Context.current().info.attempt === 1;
      if (!firstAttempt) {
        const adopted = await adoptExisting();
        if (adopted) return adopted;
      }
      return runChainWrite(deps.chain.writer, async (write) => {
        const earlier = await write.earlierTransaction();
        if (earlier)
          return mined(
            input.tokenId,
            earlier,
          )((await deps.chain.writer.waitForTransaction(earlier)).blockNumber);
        try {
          const result = await deps.chain.writer.mint(
            {
              to: input.to,
              tokenId: input.tokenId,
              metadataUri: input.metadataUrl,
              chipUid: input.chipUid,
              depositWei: deps.depositWei,
            },
            {
              firstAttempt,
              onSubmitted: async (transactionHash) => {
                write.submitted(transactionHash);
                await deps.hooks?.afterMintSubmitted?.(transactionHash);
              },
            },
          );
          return mined(result.tokenId.toString(), result.txHash)(result.blockNumber);
        } catch (error) {
          const minted =
            isChainRevert(error, 'ChipAlreadyMinted') || isChainRevert(error, 'TokenAlreadyMinted');
          const raced = minted ? await adoptExisting() : undefined;
          if (raced) return raced;
          throw error;
        }
      });
    },

    /**
     * Passport, MINT event, asset.minted and billing usage in one database transaction (idempotent). The
     * metadata recorded is the document `metadataUrl` (the token URI on chain) names.
     */
    async recordMint(
      input: Omit<
        MintedPassport,
        'mintedAt' | 'depositWei' | 'depositDecimal' | 'contractAddress' | 'platformAddress'
      > & { scope: TenantScope; mintedAt: string },
    ) {
      const prepared = ipfsUrl(computeCid(canonicalJsonBytes(input.metadata)));
      const metadata =
        prepared === input.metadataUrl
          ? input.metadata
          : await loadMetadata(deps.contentStore, input.metadataUrl);
      const passport = await recordMint(
        scoped(input.scope),
        input.scope,
        {
          ...input,
          metadata,
          mintedAt: new Date(input.mintedAt),
          depositWei: deps.depositWei.toString(),
          depositDecimal: formatEther(deps.depositWei),
          contractAddress: deps.chain.contractAddress,
          platformAddress: deps.chain.signerAddress,
        },
        deps.publicBaseUrl,
      );
      return { dbId: passport.id };
    },
  };
}
