/**
 * Multibase (base58btc, `z…`) and Multikey encodings of Ed25519 keys, as the W3C Controlled Identifiers and
 * Data Integrity specifications write them: a public key is `z` + base58btc(0xed 0x01 ‖ 32 key bytes), a
 * secret key `z` + base58btc(0x80 0x26 ‖ 32 seed bytes).
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map([...ALPHABET].map((char, i) => [char, i]));

const ED25519_PUBLIC_PREFIX = Buffer.from([0xed, 0x01]);
const ED25519_SECRET_PREFIX = Buffer.from([0x80, 0x26]);

export function base58btcEncode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  return (
    '1'.repeat(zeros) +
    digits
      .reverse()
      .map((d) => ALPHABET[d])
      .join('')
  );
}

export function base58btcDecode(text: string): Buffer {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  const bytes: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    const value = INDEX.get(text[i]!);
    if (value === undefined) throw new TypeError(`not base58btc: ${JSON.stringify(text[i])}`);
    let carry = value;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(bytes.reverse())]);
}

function multikey(prefix: Buffer, key: Uint8Array): string {
  if (key.length !== 32) throw new TypeError('an Ed25519 key has 32 bytes');
  return `z${base58btcEncode(Buffer.concat([prefix, key]))}`;
}

function fromMultikey(prefix: Buffer, value: string, what: string): Buffer {
  if (!value.startsWith('z')) throw new TypeError(`${what} must be base58btc multibase (z…)`);
  const bytes = base58btcDecode(value.slice(1));
  if (bytes.length !== 34 || !bytes.subarray(0, 2).equals(prefix)) {
    throw new TypeError(`${what} is not an Ed25519 Multikey`);
  }
  return bytes.subarray(2);
}

/** `z6Mk…`: the Multikey form of a raw 32-byte Ed25519 public key. */
export function ed25519PublicMultikey(publicKey: Uint8Array): string {
  return multikey(ED25519_PUBLIC_PREFIX, publicKey);
}

export function ed25519PublicKeyFromMultikey(value: string): Buffer {
  return fromMultikey(ED25519_PUBLIC_PREFIX, value, 'publicKeyMultibase');
}

/** `z3u2…`: the Multikey form of a 32-byte Ed25519 secret key (seed). */
export function ed25519SecretMultikey(seed: Uint8Array): string {
  return multikey(ED25519_SECRET_PREFIX, seed);
}

export function ed25519SeedFromMultikey(value: string): Buffer {
  return fromMultikey(ED25519_SECRET_PREFIX, value, 'secretKeyMultibase');
}
