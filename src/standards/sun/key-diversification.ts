import { aesCmac } from './aes-cmac.ts';

/** AN10922's AES-128 diversification constant (the first byte of the CMAC input). */
const AES128_DIV_CONSTANT = 0x01;
const MAX_INPUT_BYTES = 31;
/** Longest system identifier that still fits after a 7-byte UID. */
export const MAX_SYSTEM_IDENTIFIER_BYTES = MAX_INPUT_BYTES - 7;

/**
 * NXP AN10922 AES-128 key diversification: AES-CMAC under the master key of `0x01 || input`, `input` being
 * 1–31 bytes of diversification data (CMAC's padding and subkey choice are exactly AN10922's steps).
 */
export function diversifyAes128Key(masterKey: Uint8Array, input: Uint8Array): Buffer {
  if (masterKey.length !== 16) throw new TypeError('the master key must be 16 bytes (AES-128)');
  if (input.length < 1 || input.length > MAX_INPUT_BYTES) {
    throw new RangeError(`diversification input must be 1–${MAX_INPUT_BYTES} bytes, got ${input.length}`);
  }
  return aesCmac(masterKey, Buffer.concat([Buffer.of(AES128_DIV_CONSTANT), input]), { remember: true });
}

/** A chip's own key from a master key: diversification input = UID (7 bytes) || system identifier. */
export function chipKey(
  masterKey: Uint8Array,
  uid: Uint8Array,
  systemIdentifier: Uint8Array = Buffer.alloc(0),
): Buffer {
  return diversifyAes128Key(masterKey, Buffer.concat([uid, systemIdentifier]));
}
