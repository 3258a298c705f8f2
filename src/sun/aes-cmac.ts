/**
 * AES-128 primitives on top of node:crypto, and AES-CMAC per RFC 4493.
 * All functions take 16-byte keys and throw TypeError on wrong key/block sizes (programming errors).
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';

export const AES_BLOCK_BYTES = 16;
const ZERO_BLOCK = Buffer.alloc(AES_BLOCK_BYTES);
/** R_128 constant from RFC 4493 section 2.3 (0^120 || 10000111). */
const RB = 0x87;

function assertKey(key: Uint8Array): void {
  if (key.length !== AES_BLOCK_BYTES) {
    throw new TypeError(`AES-128 key must be 16 bytes, got ${key.length}`);
  }
}

function assertBlocks(label: string, data: Uint8Array): void {
  if (data.length % AES_BLOCK_BYTES !== 0) {
    throw new TypeError(`${label} must be a multiple of 16 bytes, got ${data.length}`);
  }
}

/** AES-128-CBC encryption without padding (ECB for one block when iv is zero and data is one block). */
export function aesCbcEncrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Buffer {
  assertKey(key);
  assertBlocks('plaintext', data);
  const cipher = createCipheriv('aes-128-cbc', key, iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** AES-128-CBC decryption without padding. */
export function aesCbcDecrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Buffer {
  assertKey(key);
  assertBlocks('ciphertext', data);
  const decipher = createDecipheriv('aes-128-cbc', key, iv);
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

/** Single-block AES-128 encryption, E(K, block). */
export function aesEncryptBlock(key: Uint8Array, block: Uint8Array): Buffer {
  if (block.length !== AES_BLOCK_BYTES) {
    throw new TypeError(`AES block must be 16 bytes, got ${block.length}`);
  }
  return aesCbcEncrypt(key, ZERO_BLOCK, block);
}

/** Left shift of a 128-bit string by one bit, XOR Rb when the MSB was set (RFC 4493 2.3). */
export function doubleBlock(block: Buffer): Buffer {
  const out = Buffer.alloc(AES_BLOCK_BYTES);
  for (let i = 0; i < AES_BLOCK_BYTES; i++) {
    const next = i + 1 < AES_BLOCK_BYTES ? block[i + 1]! : 0;
    out[i] = ((block[i]! << 1) | (next >>> 7)) & 0xff;
  }
  if ((block[0]! & 0x80) !== 0) {
    out[AES_BLOCK_BYTES - 1] = out[AES_BLOCK_BYTES - 1]! ^ RB;
  }
  return out;
}

/** RFC 4493 section 2.3 subkey generation. */
export function cmacSubkeys(key: Uint8Array): { k1: Buffer; k2: Buffer } {
  const l = aesEncryptBlock(key, ZERO_BLOCK);
  const k1 = doubleBlock(l);
  return { k1, k2: doubleBlock(k1) };
}

/**
 * The CMAC input after RFC 4493 section 2.4 steps 2–4: whole blocks, the last one padded (10^i) and XORed
 * with K2, or, when the message fills it, XORed with K1. Shared by AES-CMAC and CMAC_LRP.
 */
export function cmacBlocks(message: Uint8Array, subkeys: { k1: Buffer; k2: Buffer }): Buffer {
  const blockCount = Math.max(1, Math.ceil(message.length / AES_BLOCK_BYTES));
  const complete = message.length > 0 && message.length % AES_BLOCK_BYTES === 0;
  const padded = Buffer.alloc(blockCount * AES_BLOCK_BYTES);
  padded.set(message);
  const lastStart = (blockCount - 1) * AES_BLOCK_BYTES;
  if (!complete) {
    padded[message.length] = 0x80; // padding(x) = x || 10^i
  }
  const subkey = complete ? subkeys.k1 : subkeys.k2;
  for (let i = 0; i < AES_BLOCK_BYTES; i++) {
    padded[lastStart + i] = padded[lastStart + i]! ^ subkey[i]!;
  }
  return padded;
}

/** AES-CMAC (RFC 4493 section 2.4), full 16-byte tag. */
export function aesCmac(key: Uint8Array, message: Uint8Array): Buffer {
  const padded = cmacBlocks(message, cmacSubkeys(key));
  // CBC-MAC with a zero IV: the tag is the last ciphertext block.
  return aesCbcEncrypt(key, ZERO_BLOCK, padded).subarray(padded.length - AES_BLOCK_BYTES);
}

/** NTAG 424 DNA MAC truncation: the 8 odd-indexed bytes (1, 3, ..., 15) of the full CMAC. */
export function truncateMac(fullMac: Uint8Array): Buffer {
  if (fullMac.length !== AES_BLOCK_BYTES) {
    throw new TypeError(`full CMAC must be 16 bytes, got ${fullMac.length}`);
  }
  const out = Buffer.alloc(8);
  for (let i = 0; i < 8; i++) {
    out[i] = fullMac[2 * i + 1]!;
  }
  return out;
}
