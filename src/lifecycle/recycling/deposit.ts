import { formatEther, getAddress, isAddress, ZeroAddress } from 'ethers';
import { companyCustodyAddress } from '../../accounts/wallets/custody.ts';
import { DomainError } from '../../platform/errors.ts';

/**
 * Currency code of released deposits: the chain's native currency. Deposits are locked in wei
 * (MINT_DEPOSIT is given in ether units) and reported as ether decimals.
 */
export const DEPOSIT_CURRENCY = 'ETH';

/** `0.001 ETH`: the decimal amount with the currency code, as the log-recycle response gives it. */
export function formatDeposit(wei: bigint | string): string {
  return `${formatEther(BigInt(wei))} ${DEPOSIT_CURRENCY}`;
}

/**
 * Who receives the deposit: the address the recycler names (`rewardReceiver`), else the recycling
 * company's custodial wallet, which is also the `recycler` address of asset.recycled.
 */
export function resolveRewardReceiver(requested: string | undefined, recycler: string): string {
  if (requested === undefined) return recycler;
  if (!isAddress(requested) || getAddress(requested) === ZeroAddress) {
    throw new DomainError('invalid', 'invalid_reward_receiver', 'rewardReceiver is not a usable address.');
  }
  return getAddress(requested);
}

/** The recycler's address: the calling company's custodial wallet in this environment. */
export function recyclerAddress(
  masterSecret: string | undefined,
  companyId: string,
  environment: string,
): string {
  return companyCustodyAddress(masterSecret, companyId, environment);
}
