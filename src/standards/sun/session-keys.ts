/**
 * SDM session keys, AES mode (AN12196, SUN message sections; NT4H2421Gx datasheet 9.3.9):
 *   SV1 = C3 3C 00 01 00 80 || UID || SDMReadCtr  (zero-padded to 16 bytes)
 *   SV2 = 3C C3 00 01 00 80 || UID || SDMReadCtr  (zero-padded to 16 bytes)
 *   K_SesSDMFileReadENC = CMAC(K_SDMFileRead, SV1)
 *   K_SesSDMFileReadMAC = CMAC(K_SDMFileRead, SV2)
 * With a 7-byte UID and a 3-byte counter the vectors are exactly 16 bytes; zero padding only
 * applies when UID or counter are not mirrored.
 */
import { AES_BLOCK_BYTES, aesCbcEncrypt, aesCmac, aesEncryptBlock, aesKey } from './aes-cmac.ts';

const SV1_PREFIX = Buffer.from('C33C00010080', 'hex');
const SV2_PREFIX = Buffer.from('3CC300010080', 'hex');

function sessionVector(prefix: Buffer, uid: Uint8Array, counterBytes: Uint8Array): Buffer {
  const raw = Buffer.concat([prefix, uid, counterBytes]);
  const padded = Buffer.alloc(
    Math.max(AES_BLOCK_BYTES, Math.ceil(raw.length / AES_BLOCK_BYTES) * AES_BLOCK_BYTES),
  );
  raw.copy(padded);
  return padded;
}

/** SV1, input of the ENC session key. */
export function sessionVector1(uid: Uint8Array, counterBytes: Uint8Array): Buffer {
  return sessionVector(SV1_PREFIX, uid, counterBytes);
}

/** SV2, input of the MAC session key. */
export function sessionVector2(uid: Uint8Array, counterBytes: Uint8Array): Buffer {
  return sessionVector(SV2_PREFIX, uid, counterBytes);
}

/** K_SesSDMFileReadMAC = CMAC(K_SDMFileRead, SV2). */
export function sessionMacKey(fileReadKey: Uint8Array, uid: Uint8Array, counterBytes: Uint8Array): Buffer {
  return aesCmac(fileReadKey, sessionVector2(uid, counterBytes), { remember: true });
}

/** K_SesSDMFileReadENC = CMAC(K_SDMFileRead, SV1). */
export function sessionEncKey(fileReadKey: Uint8Array, uid: Uint8Array, counterBytes: Uint8Array): Buffer {
  return aesCmac(fileReadKey, sessionVector1(uid, counterBytes), { remember: true });
}

/** IV for SDMENCFileData: E(K_SesSDMFileReadENC, SDMReadCtr || 13 zero bytes). */
export function fileDataIv(sesEncKey: Uint8Array, counterBytes: Uint8Array): Buffer {
  const block = Buffer.alloc(AES_BLOCK_BYTES);
  block.set(counterBytes);
  return aesEncryptBlock(sesEncKey, block);
}

/** Decrypt SDMENCFileData (AES-128-CBC, no padding; length must be a multiple of 16). */
export function decryptFileData(
  fileReadKey: Uint8Array,
  uid: Uint8Array,
  counterBytes: Uint8Array,
  encrypted: Uint8Array,
): Buffer {
  const key = aesKey(sessionEncKey(fileReadKey, uid, counterBytes));
  const ivInput = Buffer.alloc(AES_BLOCK_BYTES);
  ivInput.set(counterBytes);
  return key.cbcDecrypt(key.encryptBlocks(ivInput), encrypted);
}

/** Encrypt plain file data like the chip does for SDMENCFileData (simulation/tests). */
export function encryptFileData(
  fileReadKey: Uint8Array,
  uid: Uint8Array,
  counterBytes: Uint8Array,
  plain: Uint8Array,
): Buffer {
  const key = sessionEncKey(fileReadKey, uid, counterBytes);
  return aesCbcEncrypt(key, fileDataIv(key, counterBytes), plain);
}
