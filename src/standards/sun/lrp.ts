/**
 * Leakage Resilient Primitive (NXP AN12304), AES-128 based, as used by NTAG 424 DNA in LRP mode:
 *   - 16 secret plaintexts and the updated keys derived from one 16-byte key (AN12304 Algorithms 1, 2);
 *   - EvalLRP: one AES step per 4-bit nibble of the input, plus an optional final step (Algorithm 3);
 *   - LRICB encryption/decryption with a counter (LRICBEnc / LRICBDec);
 *   - CMAC_LRP: the CMAC construction (NIST SP 800-38B) with EvalLRP as block function.
 * Functions throw TypeError/RangeError on wrong sizes (programming errors), never on data.
 */
import { AES_BLOCK_BYTES, aesCbcDecrypt, aesEncryptBlock, cmacBlocks, doubleBlock } from './aes-cmac.ts';

/** Number of secret plaintexts: 2^m with nibbles (m = 4). */
export const LRP_PLAINTEXT_COUNT = 16;
/** Updated keys NTAG 424 DNA uses: UK[0] for MACs and LRP-mode PICCData, UK[1] for file data. */
export const LRP_UPDATED_KEY_COUNT = 4;

const ZERO_BLOCK = Buffer.alloc(AES_BLOCK_BYTES);
const UPPER = Buffer.alloc(AES_BLOCK_BYTES, 0x55);
const LOWER = Buffer.alloc(AES_BLOCK_BYTES, 0xaa);

/** Secret plaintexts plus the updated key k' selected for one LRP instance. */
export type LrpCipher = { readonly plaintexts: readonly Buffer[]; readonly updatedKey: Buffer };

function assertKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array) || key.length !== AES_BLOCK_BYTES) {
    throw new TypeError('LRP key must be 16 bytes');
  }
}

/** AN12304 Algorithms 1 and 2 differ only in the constant that seeds the chain. */
function keyChain(key: Uint8Array, seed: Buffer, count: number): Buffer[] {
  assertKey(key);
  let h = aesEncryptBlock(key, seed);
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    out.push(aesEncryptBlock(h, LOWER));
    h = aesEncryptBlock(h, UPPER);
  }
  return out;
}

/** AN12304 Algorithm 1: the 16 secret plaintexts P[0..15]. */
export function generatePlaintexts(key: Uint8Array): Buffer[] {
  return keyChain(key, UPPER, LRP_PLAINTEXT_COUNT);
}

/** AN12304 Algorithm 2: the updated keys UK[0..count-1]. */
export function generateUpdatedKeys(key: Uint8Array, count: number = LRP_UPDATED_KEY_COUNT): Buffer[] {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError('updated key count must be a positive integer');
  return keyChain(key, LOWER, count);
}

/** LRP instance for `key` using updated key UK[updatedKeyIndex] as k'. */
export function lrpCipher(key: Uint8Array, updatedKeyIndex = 0): LrpCipher {
  if (!Number.isInteger(updatedKeyIndex) || updatedKeyIndex < 0) {
    throw new RangeError('updated key index must be a non-negative integer');
  }
  const updatedKey = generateUpdatedKeys(key, updatedKeyIndex + 1)[updatedKeyIndex]!;
  return { plaintexts: generatePlaintexts(key), updatedKey };
}

/** Split bytes into nibbles, high nibble first (the order EvalLRP consumes them). */
export function toNibbles(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (const b of bytes) out.push(b >>> 4, b & 0x0f);
  return out;
}

/**
 * AN12304 Algorithm 3: y = k'; for each nibble x, y = E(y, P[x]); with `final`, y = E(y, 0^128).
 * Takes nibbles rather than bytes because the AN's vectors include odd nibble counts.
 */
export function evalLrp(cipher: LrpCipher, nibbles: readonly number[], final: boolean): Buffer {
  let y = cipher.updatedKey;
  for (const x of nibbles) {
    const p = cipher.plaintexts[x];
    if (!Number.isInteger(x) || p === undefined) throw new RangeError(`not a nibble: ${x}`);
    y = aesEncryptBlock(y, p);
  }
  return final ? aesEncryptBlock(y, ZERO_BLOCK) : Buffer.from(y);
}

/**
 * Add `blocks` to a big-endian counter modulo 2^(8 * length), as LRICB does after each block
 * (e.g. FFFFFFFF + 1 = 00000000). Returns a new buffer.
 */
export function incrementCounter(counter: Uint8Array, blocks = 1): Buffer {
  const out = Buffer.from(counter);
  let carry = blocks;
  for (let i = out.length - 1; i >= 0 && carry > 0; i--) {
    const sum = out[i]! + (carry % 256);
    out[i] = sum & 0xff;
    carry = Math.floor(carry / 256) + (sum >>> 8);
  }
  return out;
}

function assertCounter(counter: Uint8Array): void {
  if (!(counter instanceof Uint8Array) || counter.length === 0 || counter.length > AES_BLOCK_BYTES) {
    throw new TypeError('LRICB counter must be 1 to 16 bytes');
  }
}

/** Block i is processed with key EvalLRP(P, k', counter + i, final = true). */
function lricbBlocks(
  cipher: LrpCipher,
  counter: Uint8Array,
  data: Buffer,
  transform: (key: Buffer, block: Buffer) => Buffer,
): Buffer {
  const out = Buffer.alloc(data.length);
  let ctr: Buffer = Buffer.from(counter);
  for (let offset = 0; offset < data.length; offset += AES_BLOCK_BYTES) {
    const key = evalLrp(cipher, toNibbles(ctr), true);
    transform(key, data.subarray(offset, offset + AES_BLOCK_BYTES)).copy(out, offset);
    ctr = incrementCounter(ctr);
  }
  return out;
}

/** ISO/IEC 9797-1 method 2: append 0x80, then zeros up to a block boundary (always adds 1..16 bytes). */
function pad(data: Uint8Array): Buffer {
  const padded = Buffer.alloc((Math.floor(data.length / AES_BLOCK_BYTES) + 1) * AES_BLOCK_BYTES);
  padded.set(data);
  padded[data.length] = 0x80;
  return padded;
}

function unpad(data: Buffer): Buffer | null {
  for (let i = data.length - 1; i >= Math.max(0, data.length - AES_BLOCK_BYTES); i--) {
    if (data[i] === 0x80) return data.subarray(0, i);
    if (data[i] !== 0x00) return null;
  }
  return null;
}

export type LricbOptions = {
  /** ISO/IEC 9797-1 method 2 padding (AN12304's default); without it data must be whole blocks. */
  padding: boolean;
};

/**
 * LRICBEnc (AN12304). `counter` is the initial counter (the chip's EncCtr / IV) and is
 * not modified; the counter after the call is `incrementCounter(counter, ciphertext.length / 16)`.
 */
export function lricbEncrypt(
  cipher: LrpCipher,
  counter: Uint8Array,
  plaintext: Uint8Array,
  options: LricbOptions,
): Buffer {
  assertCounter(counter);
  const data = options.padding ? pad(plaintext) : Buffer.from(plaintext);
  if (data.length === 0 || data.length % AES_BLOCK_BYTES !== 0) {
    throw new TypeError('LRICB plaintext without padding must be a non-empty multiple of 16 bytes');
  }
  return lricbBlocks(cipher, counter, data, (key, block) => aesEncryptBlock(key, block));
}

/**
 * LRICBDec (AN12304). Returns null only when `padding` is set and the decrypted data
 * does not end in valid padding (wrong key or counter, or tampered data).
 */
export function lricbDecrypt(
  cipher: LrpCipher,
  counter: Uint8Array,
  ciphertext: Uint8Array,
  options: LricbOptions,
): Buffer | null {
  assertCounter(counter);
  if (ciphertext.length === 0 || ciphertext.length % AES_BLOCK_BYTES !== 0) {
    throw new TypeError('LRICB ciphertext must be a non-empty multiple of 16 bytes');
  }
  const plain = lricbBlocks(cipher, counter, Buffer.from(ciphertext), (key, block) =>
    aesCbcDecrypt(key, ZERO_BLOCK, block),
  );
  return options.padding ? unpad(plain) : plain;
}

/** The CMAC block function: EvalLRP over the 32 nibbles of a block, with the final step. */
function lrpBlock(cipher: LrpCipher, block: Uint8Array): Buffer {
  return evalLrp(cipher, toNibbles(block), true);
}

/** CMAC_LRP subkeys: K1 = 2·L, K2 = 4·L with L = EvalLRP(P, k', 0^128, final = true). */
export function cmacLrpSubkeys(cipher: LrpCipher): { k1: Buffer; k2: Buffer } {
  const k1 = doubleBlock(lrpBlock(cipher, ZERO_BLOCK));
  return { k1, k2: doubleBlock(k1) };
}

/**
 * CMAC_LRP (AN12304 section 2.4), full 16-byte tag. NTAG 424 DNA computes it with k' = UK[0]
 * (`lrpCipher(key)`), and truncates like AES mode (`truncateMac`).
 */
export function cmacLrp(cipher: LrpCipher, message: Uint8Array): Buffer {
  const padded = cmacBlocks(message, cmacLrpSubkeys(cipher));
  let y: Buffer = Buffer.alloc(AES_BLOCK_BYTES);
  for (let offset = 0; offset < padded.length; offset += AES_BLOCK_BYTES) {
    for (let i = 0; i < AES_BLOCK_BYTES; i++) y[i] = y[i]! ^ padded[offset + i]!;
    y = lrpBlock(cipher, y);
  }
  return y;
}
