import type { EntityManager } from '@mikro-orm/postgresql';
import { getAddress } from 'ethers';
import { companyCustodyAddress } from '../../accounts/wallets/custody.ts';
import { userWalletAddress, userWalletOwnerAddress } from '../../accounts/wallets/user-wallet.ts';

/**
 * Who holds a passport, for the console (docs/smart-accounts.md, "In the console"):
 * - `company-custody`: the company's own custody wallet (minted, not sold, or back with the company);
 * - `smart-account`: a buyer's wallet, the ERC-4337 smart account the service keeps for them; `deployed` says
 *   whether it exists on chain yet (its first sponsored operation creates it);
 * - `personal-wallet`: a buyer's wallet from before smart accounts (the derived key's own address);
 * - `other`: an address the service does not know (moved on chain outside the service).
 */
export interface OwnerWallet {
  address: string;
  kind: 'company-custody' | 'smart-account' | 'personal-wallet' | 'other';
  /** For a smart account: created on chain (an operation of it was included); null for the other kinds. */
  deployed: boolean | null;
}

export interface OwnerWalletSecrets {
  custodyMasterSecret: string | undefined;
  walletMasterSecret: string | undefined;
}

const BUYER_OF_WALLET = `
  select buyer_email from resales
   where environment = ? and token_id = ? and lower(buyer_wallet) = lower(?) and buyer_email is not null
   order by created_at desc limit 1`;

export async function describeOwnerWallet(
  em: EntityManager,
  passport: { ownerWallet: string; companyId: string; environment: string; tokenId: string },
  secrets: OwnerWalletSecrets,
): Promise<OwnerWallet> {
  const address = getAddress(passport.ownerWallet);
  if (
    address === companyCustodyAddress(secrets.custodyMasterSecret, passport.companyId, passport.environment)
  )
    return { address, kind: 'company-custody', deployed: null };
  const connection = em.getConnection();
  const [buyer] = await connection.execute<{ buyer_email: string }[]>(BUYER_OF_WALLET, [
    passport.environment,
    passport.tokenId,
    address,
  ]);
  if (buyer && userWalletAddress(secrets.walletMasterSecret, buyer.buyer_email) === address) {
    const [operation] = await connection.execute<{ n: number }[]>(
      `select 1 as n from user_operations where sender = ? and state in ('included', 'reverted') limit 1`,
      [address],
    );
    return { address, kind: 'smart-account', deployed: operation !== undefined };
  }
  if (buyer && userWalletOwnerAddress(secrets.walletMasterSecret, buyer.buyer_email) === address)
    return { address, kind: 'personal-wallet', deployed: null };
  return { address, kind: 'other', deployed: null };
}
