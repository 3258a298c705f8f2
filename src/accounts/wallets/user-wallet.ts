import { concat, keccak256, toUtf8Bytes, Wallet } from 'ethers';
import { normaliseEmail } from '../identity/email.ts';

const DEV_WALLET_MASTER_SECRET = 'dpp-development-only-wallet-master-secret';

/**
 * A user's invisible wallet: the private key is keccak256(masterSecret ‖ 0x00 ‖ normalised e-mail), so the
 * platform re-derives it whenever it must act for the user and the user never holds a key or gas. Anyone with
 * the master secret controls every user wallet: it lives in the secret store, never in logs or the database.
 */
export function deriveUserWallet(masterSecret: string | undefined, email: string): Wallet {
  const secret = toUtf8Bytes(masterSecret ?? DEV_WALLET_MASTER_SECRET);
  return new Wallet(keccak256(concat([secret, new Uint8Array([0]), toUtf8Bytes(normaliseEmail(email))])));
}

export function userWalletAddress(masterSecret: string | undefined, email: string): string {
  return deriveUserWallet(masterSecret, email).address;
}
