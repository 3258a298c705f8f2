import { keccak256, toUtf8Bytes, Wallet } from 'ethers';

const DEV_MASTER_SECRET = 'dpp-development-only-custody-master-secret';

/**
 * Deterministic custodial wallets ("invisible wallets"): the private key is keccak256 of the master
 * secret and a label, so the platform can always re-derive it and users never handle keys.
 */
export function deriveWallet(masterSecret: string | undefined, label: string): Wallet {
  return new Wallet(keccak256(toUtf8Bytes(`${masterSecret ?? DEV_MASTER_SECRET}:${label}`)));
}

// Deriving an address costs a secp256k1 point multiplication (~1 ms); it is a pure function of its inputs.
const custodyAddresses = new Map<string, string>();
const CUSTODY_ADDRESS_CACHE_SIZE = 10_000;

/** The address that holds a company's passports until they are sold. */
export function companyCustodyAddress(
  masterSecret: string | undefined,
  companyId: string,
  environment: string,
): string {
  const label = `company:${companyId}:${environment}`;
  const key = `${masterSecret ?? ''}\u0000${label}`;
  let address = custodyAddresses.get(key);
  if (address === undefined) {
    address = deriveWallet(masterSecret, label).address;
    if (custodyAddresses.size >= CUSTODY_ADDRESS_CACHE_SIZE) custodyAddresses.clear();
    custodyAddresses.set(key, address);
  }
  return address;
}
