import { concat, keccak256, toUtf8Bytes, Wallet } from 'ethers';
import { ENTRY_POINT_ADDRESS } from '../../adapters/bundler/account-contracts.ts';
import { smartAccountAddress } from '../../adapters/bundler/smart-account-address.ts';
import { normaliseEmail } from '../identity/email.ts';

const DEV_WALLET_MASTER_SECRET = 'dpp-development-only-wallet-master-secret';

/**
 * The key of a user's invisible wallet: keccak256(masterSecret ‖ 0x00 ‖ normalised e-mail), so the platform
 * re-derives it whenever it must act for the user and the user never holds a key or gas. It owns (signs for) the
 * user's smart account. Anyone with the master secret controls every user wallet: it lives in the secret store,
 * never in logs or the database.
 */
export function deriveUserWallet(masterSecret: string | undefined, email: string): Wallet {
  const secret = toUtf8Bytes(masterSecret ?? DEV_WALLET_MASTER_SECRET);
  return new Wallet(keccak256(concat([secret, new Uint8Array([0]), toUtf8Bytes(normaliseEmail(email))])));
}

/** The derived key's own address (an EOA): the owner of the smart account; before issue 40, the wallet itself. */
export function userWalletOwnerAddress(masterSecret: string | undefined, email: string): string {
  return deriveUserWallet(masterSecret, email).address;
}

/**
 * The user's wallet: their ERC-4337 smart account, owned by the derived key. Its address is known before it
 * exists (the first sponsored operation deploys it); passports a user buys are held there.
 */
export function userWalletAddress(masterSecret: string | undefined, email: string): string {
  return smartAccountAddress(ENTRY_POINT_ADDRESS, userWalletOwnerAddress(masterSecret, email));
}
