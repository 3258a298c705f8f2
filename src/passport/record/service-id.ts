import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `svc_` + 20 base32 characters (100 random bits): the twin's handle for binding. */
export function newServiceInternalId(): string {
  const bytes = randomBytes(13);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
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
