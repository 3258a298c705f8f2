import { Wallet } from 'ethers';
import { smartAccountAddress } from '../src/adapters/bundler/smart-account-address.ts';
import { SponsoredOperations } from '../src/adapters/bundler/sponsored-operations.ts';
import { UserOperationStore } from '../src/adapters/bundler/user-operation-store.ts';
import { startTestChain } from '../test/support/anvil.ts';
import { startTestAccounts } from '../test/support/smart-accounts.ts';

/**
 * `npm run bench -- claim-gas`: gas of one claim three ways on anvil: relayed by the platform (claimOwnershipFor,
 * the path before smart accounts), the buyer's first sponsored operation through alto (deploys the account and
 * claims), and a later one (the account exists). Gas of the whole transaction (the bundle of one operation).
 */
export async function benchClaimGas(): Promise<void> {
  const t = await startTestChain();
  const aa = await startTestAccounts(t);
  try {
    const operations = new SponsoredOperations({
      ctx: aa,
      store: new UserOperationStore(t.orm, aa.chainId),
      pollIntervalMs: 50,
    });
    let chip = 0;
    const passport = async (account: string) => {
      chip++;
      const { tokenId } = await t.chain.writer.mint({
        to: t.others[0]!.address,
        metadataUri: `ipfs://bench-${chip}`,
        chipUid: `04CC00000000${String(chip).padStart(2, '0')}`,
      });
      await t.chain.writer.authorizeClaim({ tokenId, account });
      return tokenId;
    };
    const gasOf = async (txHash: string) => (await t.chain.provider.getTransactionReceipt(txHash))!.gasUsed;

    const relayedToken = await passport(t.others[1]!.address);
    const relayed = await t.chain.writer.claimOwnershipFor({
      tokenId: relayedToken,
      account: t.others[1]!.address,
    });
    const relayedGas = await gasOf(relayed.txHash);

    const buyer = Wallet.createRandom();
    const account = smartAccountAddress(aa.entryPoint, buyer.address);
    const sponsoredClaim = async () => {
      const tokenId = await passport(account);
      const data = t.chain.reader.abi.interface.encodeFunctionData('claimOwnership', [BigInt(tokenId)]);
      const outcome = await operations.execute({
        idempotencyKey: `bench:${tokenId}`,
        purpose: 'claim',
        companyId: null,
        owner: buyer,
        target: t.contractAddress,
        data,
      });
      return { gas: await gasOf(outcome.txHash), cost: outcome.actualGasCost };
    };
    const first = await sponsoredClaim();
    const later = await sponsoredClaim();
    console.log('\nclaim gas (anvil, one operation per bundle)');
    console.log(`  relayed claimOwnershipFor (platform signer)        ${relayedGas}`);
    console.log(
      `  sponsored op, first (deploys the account + claims) ${first.gas}  (${(Number(first.gas) / Number(relayedGas)).toFixed(2)}x)`,
    );
    console.log(
      `  sponsored op, account exists                       ${later.gas}  (${(Number(later.gas) / Number(relayedGas)).toFixed(2)}x)`,
    );
    console.log(`  paid by the paymaster (wei), first / later         ${first.cost} / ${later.cost}`);
  } finally {
    await aa.stop();
    await t.stop();
  }
}
