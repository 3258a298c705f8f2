/** Public API of the SUN (Secure Unique NFC) verification module. AES and LRP mode; AN10922 key diversification. */
export { aesCmac, truncateMac } from './aes-cmac.ts';
export { type ChipUidResult, chipUidFromBytes, normalizeChipUid } from './chip-uid.ts';
export { type ChipType, FACTORY_DEFAULT_KEY, NTAG_424_DNA, SDM_READ_CTR_MAX } from './constants.ts';
export { type GeneratedSun, type GenerateSunInput, generateSun } from './generate-sun.ts';
export { chipKey, diversifyAes128Key, MAX_SYSTEM_IDENTIFIER_BYTES } from './key-diversification.ts';
export {
  type MacInputStart,
  type ParsedSunMessage,
  parseSunMessage,
  SUN_PARAM_NAMES,
  type SunParseResult,
  type SunPayload,
  sunPayloadOf,
} from './sun-url.ts';
export { type LoopState, type TagTamperStatus, tagTamperStatus } from './tag-tamper.ts';
export {
  type SunFailure,
  type SunFailureReason,
  type SunKeys,
  type SunResult,
  type SunSuccess,
  type VerifySunInput,
  verifySun,
} from './verify-sun.ts';
export { LRP_PICC_DATA_BYTES, type VerifySunLrpInput, verifySunLrp } from './verify-sun-lrp.ts';
export { verifySunMessage, verifyTapInEitherMode } from './verify-tap-message.ts';
