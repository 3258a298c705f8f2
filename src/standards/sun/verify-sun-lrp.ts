/**
 * SUN verification in LRP mode (NTAG 424 DNA with LRP enabled; NT4H2421Gx datasheet, SDM in LRP
 * mode; LRP itself is NXP AN12304, implemented in lrp.ts). Same contract as `verifySun`: pure, bad
 * tap data never throws, the caller persists counters per UID for replay protection.
 *
 *   1. The mirrored PICCData is 24 bytes: PICCRand(8) || EncPICCData(16).
 *      PICCData = LRICBDec(K_SDMMetaRead with UK[0], counter = PICCRand, no padding), with the same
 *      plaintext layout as AES mode: tag 0xC7 || UID(7) || SDMReadCtr(3, LSB first) || padding(5).
 *   2. SV = 00 01 00 80 || UID || SDMReadCtr || zero padding || 1E E1 (exactly 16 bytes for a
 *      7-byte UID and 3-byte counter).
 *      K_SesSDMFileReadMaster = CMAC_LRP(K_SDMFileRead with UK[0], SV).
 *   3. SDMMAC = CMAC_LRP(K_SesSDMFileReadMaster with UK[0], MAC input), truncated to its odd-indexed
 *      bytes like AES mode.
 *   4. SDMENCFileData = LRICBEnc(K_SesSDMFileReadMaster with UK[1], counter = SDMReadCtr || 00 00 00,
 *      no padding); decrypted here with LRICBDec.
 *
 * Steps and vectors follow nfc-developer/sdm-backend (libsdm/sdm.py, tests/test_lrp_sdm.py,
 * tests/test_libsdm.py), whose LRP examples are captures from real chips, not NXP-published vectors.
 */
import { truncateMac } from './aes-cmac.ts';
import { SDM_MAC_BYTES } from './constants.ts';
import { parseBytes } from './hex.ts';
import { cmacLrp, lricbDecrypt, lrpCipher } from './lrp.ts';
import { PICC_DATA_BYTES, parsePiccData } from './picc-data.ts';
import {
  assertKey,
  chipFileReadKey,
  encFileDataIsMaced,
  fail,
  macInputBytes,
  parseExpectedUid,
  type SunResult,
  type VerifySunInput,
  verdict,
} from './verify-sun.ts';

/** PICCRand, the random LRICB counter the chip prepends to the encrypted PICCData. */
export const LRP_PICC_RAND_BYTES = 8;
/** Mirrored LRP-mode PICCData: PICCRand(8) || EncPICCData(16) = 24 bytes (48 hex digits). */
export const LRP_PICC_DATA_BYTES = LRP_PICC_RAND_BYTES + PICC_DATA_BYTES;

/** Updated key used for CMAC_LRP and for decrypting PICCData. */
const UK_MAC = 0;
/** Updated key used for SDMENCFileData (LRICB). */
const UK_FILE_ENC = 1;
const SV_PREFIX = Buffer.from('00010080', 'hex');
const SV_SUFFIX = Buffer.from('1EE1', 'hex');
const BLOCK_BYTES = 16;

/**
 * Same shape as `VerifySunInput`, except that `piccData` is the 24-byte LRP form
 * (PICCRand || EncPICCData, 48 hex digits).
 */
export type VerifySunLrpInput = VerifySunInput;

/** SV = 00 01 00 80 || UID || SDMReadCtr || zero padding || 1E E1, a multiple of 16 bytes. */
export function lrpSessionVector(uid: Uint8Array, counterBytes: Uint8Array): Buffer {
  const body = Buffer.concat([SV_PREFIX, uid, counterBytes]);
  const total = Math.ceil((body.length + SV_SUFFIX.length) / BLOCK_BYTES) * BLOCK_BYTES;
  const sv = Buffer.alloc(total);
  body.copy(sv);
  SV_SUFFIX.copy(sv, total - SV_SUFFIX.length);
  return sv;
}

/** K_SesSDMFileReadMaster = CMAC_LRP(K_SDMFileRead, SV) with updated key UK[0]. */
export function lrpSessionMasterKey(
  fileReadKey: Uint8Array,
  uid: Uint8Array,
  counterBytes: Uint8Array,
): Buffer {
  return cmacLrp(lrpCipher(fileReadKey, UK_MAC), lrpSessionVector(uid, counterBytes));
}

/** LRICB counter for SDMENCFileData: SDMReadCtr (as sent, LSB first) || 00 00 00. */
function fileDataCounter(counterBytes: Uint8Array): Buffer {
  return Buffer.concat([counterBytes, Buffer.alloc(3)]);
}

/** Decrypt SDMENCFileData (LRICB with the session master key's UK[1], no padding). */
export function decryptFileDataLrp(
  sessionMasterKey: Uint8Array,
  counterBytes: Uint8Array,
  encrypted: Uint8Array,
): Buffer {
  const plain = lricbDecrypt(
    lrpCipher(sessionMasterKey, UK_FILE_ENC),
    fileDataCounter(counterBytes),
    encrypted,
    {
      padding: false,
    },
  );
  // Without padding LRICBDec always returns the plaintext; null is only possible with padding.
  return plain ?? Buffer.alloc(0);
}

/** Verify one LRP-mode SUN message (PICCRand || EncPICCData, CMAC, optional SDMENCFileData). */
export function verifySunLrp(input: VerifySunLrpInput): SunResult {
  assertKey('metaReadKey', input.keys?.metaReadKey);
  assertKey('fileReadKey', input.keys?.fileReadKey);
  const expectedUid = parseExpectedUid(input.expectedUid);

  const picc = parseBytes('piccData', input.piccData, { expectedBytes: LRP_PICC_DATA_BYTES });
  if (!picc.ok) return fail('malformed', `${picc.message} (LRP mode: PICCRand(8) || EncPICCData(16))`);
  const cmac = parseBytes('cmac', input.cmac, { expectedBytes: SDM_MAC_BYTES });
  if (!cmac.ok) return fail('malformed', cmac.message);
  let encFileData: Buffer | undefined;
  if (input.encFileData !== undefined) {
    const enc = parseBytes('encFileData', input.encFileData, { blockMultiple: BLOCK_BYTES });
    if (!enc.ok) return fail('malformed', enc.message);
    encFileData = enc.bytes;
  }
  const macInput = macInputBytes(input.macInput);
  if (macInput === null) return fail('malformed', 'macInput must be a string or a byte array');
  if (encFileData !== undefined && !encFileDataIsMaced(macInput, encFileData)) {
    return fail('malformed', 'encFileData is not covered by macInput, so it cannot be authenticated');
  }

  const piccRand = picc.bytes.subarray(0, LRP_PICC_RAND_BYTES);
  const encPicc = picc.bytes.subarray(LRP_PICC_RAND_BYTES);
  const plain = lricbDecrypt(lrpCipher(input.keys.metaReadKey, UK_MAC), piccRand, encPicc, {
    padding: false,
  });
  if (plain === null) return fail('bad_tag', 'PICCData could not be decrypted');
  const decoded = parsePiccData(plain);
  if (!decoded.ok) return fail('bad_tag', decoded.message);
  const { uid, counterBytes, counter } = decoded.picc;
  const sessionKey = lrpSessionMasterKey(chipFileReadKey(input.keys, uid), uid, counterBytes);
  return verdict({
    expectedMac: truncateMac(cmacLrp(lrpCipher(sessionKey, UK_MAC), macInput)),
    cmac: cmac.bytes,
    mode: 'LRP',
    uid,
    counter,
    expectedUid,
    fileData: encFileData && (() => decryptFileDataLrp(sessionKey, counterBytes, encFileData)),
  });
}
