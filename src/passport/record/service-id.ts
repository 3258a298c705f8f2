import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `svc_` + 20 base32 characters (100 random bits): the twin's handle for binding. */
export function newServiceInternalId(): string {
  return serviceInternalIdOf(randomBytes(13));
}

/** The service internal id made of the first 100 bits of `bytes` (at least 13 bytes). */
export function serviceInternalIdOf(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes.subarray(0, 13)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 20) {
      bits -= 5;
      out += BASE32[(value >>> bits) & 31];
    }
    value &= (1 << bits) - 1;
  }
  return `svc_${out}`;
}

export const SERVICE_INTERNAL_ID_PATTERN = /^svc_[a-z2-7]{20}$/;
