import { keccak256, toUtf8Bytes, Wallet } from 'ethers';

const DEV_MASTER_SECRET = 'dpp-development-only-custody-master-secret';

/**
 * Deterministic custodial wallets ("invisible wallets"): the private key is keccak256 of the master
 * secret and a label, so the platform can always re-derive it and users never handle keys.
 */
export function deriveWallet(masterSecret: string | undefined, label: string): Wallet {
  return new Wallet(keccak256(toUtf8Bytes(`${masterSecret ?? DEV_MASTER_SECRET}:${label}`)));
}

/** The address that holds a company's passports until they are sold. */
export function companyCustodyAddress(
  masterSecret: string | undefined,
  companyId: string,
  environment: string,
): string {
  return deriveWallet(masterSecret, `company:${companyId}:${environment}`).address;
}
