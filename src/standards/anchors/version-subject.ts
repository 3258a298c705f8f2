import { keccak256, toUtf8Bytes } from 'ethers';

/**
 * The `subject` a passport version without a token is anchored under (`anchorVersion`): keccak256 of the UTF-8
 * text `{digitalProductPassportId}/versions/{number}`, so anyone holding the dppId finds its versions' logs.
 */
export function versionSubject(dppId: string, number: number): string {
  return keccak256(toUtf8Bytes(`${dppId}/versions/${number}`));
}

/** A hex SHA-256 (64 digits, as versions store it) as the contract's bytes32. */
export const sha256Bytes32 = (hex: string): string => `0x${hex.trim().toLowerCase()}`;
