/**
 * AES-128 primitives on top of node:crypto, and AES-CMAC per RFC 4493.
 * All functions take 16-byte keys and throw TypeError on wrong key/block sizes (programming errors).
 *
 * Speed: setting up a node:crypto cipher costs far more than encrypting a block with it, and a SUN tap needs
 * a handful of AES blocks. So a key's cipher is set up once (ECB, no padding: `update` then encrypts any
 * number of whole blocks, each on its own), and keys used again and again (a company's SDM keys) keep theirs
 * in a small bounded cache (`remember`). Per-tap session keys are set up once per tap and not remembered.
 */
import {
  type Cipheriv,
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  type Decipheriv,
  type KeyObject,
} from 'node:crypto';

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
  const cipher = createCipheriv('aes-128-cbc', createSecretKey(key), iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** AES-128-CBC decryption without padding. */
export function aesCbcDecrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Buffer {
  assertKey(key);
  assertBlocks('ciphertext', data);
  const decipher = createDecipheriv('aes-128-cbc', createSecretKey(key), iv);
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

/** One AES-128 key, set up once: raw block encryption and decryption and its CMAC subkeys. */
export class AesKey {
  // A KeyObject, not the bytes: node:crypto sets a cipher up from a KeyObject several times faster.
  readonly #key: KeyObject;
  #encryptor: Cipheriv | undefined;
  #decryptor: Decipheriv | undefined;
  #subkeys: { k1: Buffer; k2: Buffer } | undefined;

  constructor(key: Uint8Array) {
    assertKey(key);
    this.#key = createSecretKey(key);
  }

  /** E(K, b) for each 16-byte block b (ECB). */
  encryptBlocks(data: Uint8Array): Buffer {
    assertBlocks('plaintext', data);
    if (!this.#encryptor) {
      this.#encryptor = createCipheriv('aes-128-ecb', this.#key, null);
      this.#encryptor.setAutoPadding(false);
    }
    return this.#encryptor.update(data);
  }

  /** D(K, c) for each 16-byte block c (ECB). */
  decryptBlocks(data: Uint8Array): Buffer {
    assertBlocks('ciphertext', data);
    if (!this.#decryptor) {
      this.#decryptor = createDecipheriv('aes-128-ecb', this.#key, null);
      this.#decryptor.setAutoPadding(false);
    }
    return this.#decryptor.update(data);
  }

  /** AES-128-CBC decryption without padding, from block decryption (one cipher for this key's every use). */
  cbcDecrypt(iv: Uint8Array, data: Uint8Array): Buffer {
    const plain = this.decryptBlocks(data);
    for (let i = 0; i < plain.length; i++) {
      plain[i] = plain[i]! ^ (i < AES_BLOCK_BYTES ? iv[i]! : data[i - AES_BLOCK_BYTES]!);
    }
    return plain;
  }

  /** RFC 4493 section 2.3 subkey generation. */
  subkeys(): { k1: Buffer; k2: Buffer } {
    if (!this.#subkeys) {
      const k1 = doubleBlock(this.encryptBlocks(ZERO_BLOCK));
      this.#subkeys = { k1, k2: doubleBlock(k1) };
    }
    return this.#subkeys;
  }

  /** AES-CMAC (RFC 4493 section 2.4), full 16-byte tag: CBC-MAC with a zero IV over the prepared blocks. */
  cmac(message: Uint8Array): Buffer {
    const blocks = cmacBlocks(message, this.subkeys());
    let chained: Buffer = Buffer.alloc(AES_BLOCK_BYTES);
    for (let start = 0; start < blocks.length; start += AES_BLOCK_BYTES) {
      for (let i = 0; i < AES_BLOCK_BYTES; i++) chained[i] = chained[i]! ^ blocks[start + i]!;
      chained = this.encryptBlocks(chained);
    }
    return chained;
  }
}

// Long-lived keys (a company's SDM keys, a diversification master key) keep their set-up cipher. Bounded:
// the oldest is dropped first. Keyed by the key bytes themselves, as the key objects are new per request.
const REMEMBERED_KEYS = 256;
const remembered = new Map<string, AesKey>();

/** The set-up key; `remember` keeps it for the next call with the same key bytes. */
export function aesKey(key: Uint8Array, options: { remember?: boolean } = {}): AesKey {
  if (!options.remember) return new AesKey(key);
  const id = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
  let found = remembered.get(id);
  if (!found) {
    found = new AesKey(key);
    if (remembered.size >= REMEMBERED_KEYS) remembered.delete(remembered.keys().next().value!);
    remembered.set(id, found);
  }
  return found;
}

/** Single-block AES-128 encryption, E(K, block). */
export function aesEncryptBlock(key: Uint8Array, block: Uint8Array): Buffer {
  if (block.length !== AES_BLOCK_BYTES) {
    throw new TypeError(`AES block must be 16 bytes, got ${block.length}`);
  }
  return new AesKey(key).encryptBlocks(block);
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
  return new AesKey(key).subkeys();
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

/** AES-CMAC (RFC 4493 section 2.4), full 16-byte tag; `remember` for long-lived keys (see aesKey). */
export function aesCmac(key: Uint8Array, message: Uint8Array, options: { remember?: boolean } = {}): Buffer {
  return options.remember ? aesKey(key, options).cmac(message) : cmacOnce(key, message);
}

/**
 * CMAC with a key used once (a tap's session key): one CBC cipher with a zero IV does it all in two calls.
 * Its first block is E(0) = L, the subkeys' source; the chain then holds L, so the message's first block
 * goes in XORed with L, which leaves E(m1), as CBC-MAC from a zero IV needs.
 */
function cmacOnce(key: Uint8Array, message: Uint8Array): Buffer {
  assertKey(key);
  const cipher = createCipheriv('aes-128-cbc', createSecretKey(key), ZERO_BLOCK);
  cipher.setAutoPadding(false);
  const l = cipher.update(ZERO_BLOCK);
  const k1 = doubleBlock(l);
  const blocks = cmacBlocks(message, { k1, k2: doubleBlock(k1) });
  for (let i = 0; i < AES_BLOCK_BYTES; i++) blocks[i] = blocks[i]! ^ l[i]!;
  return cipher.update(blocks).subarray(blocks.length - AES_BLOCK_BYTES);
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
