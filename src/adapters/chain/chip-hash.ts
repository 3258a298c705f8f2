import { keccak256, toUtf8Bytes } from 'ethers';
import { normalizeChipUid } from '../../standards/sun/chip-uid.ts';

/**
 * The on-chain key of a chip: keccak256 of the UTF-8 bytes of its canonical UID string (uppercase
 * hex, no separators, e.g. `04DE5F1EACC040`). The UID itself is never written to the chain.
 * Throws TypeError for a UID that is not a valid NTAG 424 DNA UID.
 */
export function chipHash(chipUid: string): string {
  const normalized = normalizeChipUid(chipUid);
  if (!normalized.ok) throw new TypeError(normalized.message);
  return keccak256(toUtf8Bytes(normalized.uid));
}
