/**
 * PICCData (AES mode, AN12196 section "SUN message ... PICCData encrypted"):
 *   PICCData = PICCDataTag(1) || UID(7) || SDMReadCtr(3, LSB first) || random padding(5)
 *   EncPICCData = AES-128-CBC(K_SDMMetaRead, IV = 0, PICCData), no padding.
 * PICCDataTag: bit 7 = UID mirrored, bit 6 = SDMReadCtr mirrored, bits 5-4 RFU (0),
 * bits 3-0 = UID length (7 for NTAG 424 DNA).
 */
import { AES_BLOCK_BYTES, aesCbcEncrypt, aesKey } from './aes-cmac.ts';
import { NTAG_424_DNA_UID_BYTES, SDM_READ_CTR_BYTES, SDM_READ_CTR_MAX } from './constants.ts';

const ZERO_IV = Buffer.alloc(AES_BLOCK_BYTES);
export const PICC_DATA_BYTES = AES_BLOCK_BYTES;
export const PICC_TAG_UID_MIRRORED = 0x80;
export const PICC_TAG_CTR_MIRRORED = 0x40;
const PICC_TAG_RFU_MASK = 0x30;
const PICC_TAG_UID_LENGTH_MASK = 0x0f;
/** Tag value produced by an NTAG 424 DNA mirroring both UID and counter: 0xC7. */
export const PICC_TAG_NTAG424 = PICC_TAG_UID_MIRRORED | PICC_TAG_CTR_MIRRORED | NTAG_424_DNA_UID_BYTES;
/** Random padding after the counter in AES-mode PICCData (5 bytes). */
export const PICC_PADDING_BYTES = PICC_DATA_BYTES - 1 - NTAG_424_DNA_UID_BYTES - SDM_READ_CTR_BYTES;

export type PiccData = {
  tag: number;
  uid: Buffer;
  /** SDMReadCtr as sent (LSB first); this exact byte order feeds the session vectors. */
  counterBytes: Buffer;
  counter: number;
};

export type PiccDataResult = { ok: true; picc: PiccData } | { ok: false; message: string };

/** Decode SDMReadCtr (3 bytes, LSB first) into an integer. */
export function counterFromBytes(bytes: Uint8Array): number {
  return (bytes[0] ?? 0) | ((bytes[1] ?? 0) << 8) | ((bytes[2] ?? 0) << 16);
}

/** Encode an integer counter as SDMReadCtr (3 bytes, LSB first). */
export function counterToBytes(counter: number): Buffer {
  if (!Number.isInteger(counter) || counter < 0 || counter > SDM_READ_CTR_MAX) {
    throw new RangeError(`SDMReadCtr must be an integer in 0..${SDM_READ_CTR_MAX}, got ${counter}`);
  }
  return Buffer.from([counter & 0xff, (counter >>> 8) & 0xff, (counter >>> 16) & 0xff]);
}

/**
 * Parse decrypted PICCData. Only the NTAG 424 DNA layout (UID and counter both mirrored,
 * UID length 7) is accepted; anything else usually means a wrong SDM meta-read key.
 */
export function parsePiccData(plain: Uint8Array): PiccDataResult {
  if (plain.length !== PICC_DATA_BYTES) {
    return { ok: false, message: `PICCData must be ${PICC_DATA_BYTES} bytes, got ${plain.length}` };
  }
  const tag = plain[0]!;
  const tagHex = `0x${tag.toString(16).padStart(2, '0').toUpperCase()}`;
  const hint = 'wrong SDM meta-read key, or not an NTAG 424 DNA SUN message';
  const uidLength = tag & PICC_TAG_UID_LENGTH_MASK;
  if (uidLength !== NTAG_424_DNA_UID_BYTES) {
    return {
      ok: false,
      message: `PICCDataTag ${tagHex} declares a UID length of ${uidLength}, NTAG 424 DNA uses ${NTAG_424_DNA_UID_BYTES} (${hint})`,
    };
  }
  if ((tag & PICC_TAG_RFU_MASK) !== 0) {
    return { ok: false, message: `PICCDataTag ${tagHex} has reserved bits 5-4 set (${hint})` };
  }
  if ((tag & PICC_TAG_UID_MIRRORED) === 0 || (tag & PICC_TAG_CTR_MIRRORED) === 0) {
    return {
      ok: false,
      message: `PICCDataTag ${tagHex} does not mirror both UID and SDMReadCtr; both are required (${hint})`,
    };
  }
  const uidEnd = 1 + NTAG_424_DNA_UID_BYTES;
  const uid = Buffer.from(plain.subarray(1, uidEnd));
  const counterBytes = Buffer.from(plain.subarray(uidEnd, uidEnd + SDM_READ_CTR_BYTES));
  return { ok: true, picc: { tag, uid, counterBytes, counter: counterFromBytes(counterBytes) } };
}

/** Decrypt EncPICCData with K_SDMMetaRead (AES-128-CBC, zero IV) and parse it. */
export function decryptPiccData(metaReadKey: Uint8Array, encrypted: Uint8Array): PiccDataResult {
  if (encrypted.length !== PICC_DATA_BYTES) {
    return { ok: false, message: `PICCData must be ${PICC_DATA_BYTES} bytes, got ${encrypted.length}` };
  }
  // One block under a zero IV: CBC is plain block decryption, with the company's remembered key.
  return parsePiccData(aesKey(metaReadKey, { remember: true }).decryptBlocks(encrypted));
}

/**
 * Build and encrypt PICCData like the chip does. `padding` (5 bytes) is random on a real chip;
 * pass it explicitly only to reproduce published vectors.
 */
export function encryptPiccData(
  metaReadKey: Uint8Array,
  uid: Uint8Array,
  counter: number,
  padding: Uint8Array,
): Buffer {
  if (uid.length !== NTAG_424_DNA_UID_BYTES) {
    throw new RangeError(`UID must be ${NTAG_424_DNA_UID_BYTES} bytes, got ${uid.length}`);
  }
  if (padding.length !== PICC_PADDING_BYTES) {
    throw new RangeError(`PICCData padding must be ${PICC_PADDING_BYTES} bytes, got ${padding.length}`);
  }
  const plain = Buffer.concat([Buffer.from([PICC_TAG_NTAG424]), uid, counterToBytes(counter), padding]);
  return aesCbcEncrypt(metaReadKey, ZERO_IV, plain);
}
