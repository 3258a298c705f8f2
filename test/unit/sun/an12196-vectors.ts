/**
 * Published example vectors, all with factory-default (all-zero) keys.
 *
 * AN12196 "NTAG 424 DNA and NTAG 424 DNA TagTamper features and hints" (NXP, Rev. 1.5),
 * SUN message examples:
 *  - PICCData encrypted + CMAC over a zero-length input (SDMMACInputOffset == SDMMACOffset);
 *    decrypted PICCData C704DE5F1EACC0403D0000DA5CF60941, K_SesSDMFileReadMAC 3FB5F6E3...776F.
 *  - PICCData encrypted + SDMENCFileData + CMAC over "CEE9...8962&cmac=";
 *    K_SesSDMFileReadMAC 3ED0920E...FBB1, decrypted file data "xxxxxxxxxxxxxxxx".
 * Intermediate values were cross-checked against NXP community threads quoting the note
 * (community.nxp.com: "Clarification on Padding in SDMReadCtr", "NTAG 424 DNA SDMACFull
 * calculation", "NTAG 424 DNA: Truncated MAC Calculation").
 */

export const ZERO_KEY = Buffer.alloc(16);
export const ZERO_KEYS = { metaReadKey: ZERO_KEY, fileReadKey: ZERO_KEY };

export const PICC_ONLY = {
  url: 'https://www.my424dna.com/?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE65337086',
  piccData: 'EF963FF7828658A599F3041510671E88',
  cmac: '94EED9EE65337086',
  decryptedPiccData: 'C704DE5F1EACC0403D0000DA5CF60941',
  piccPadding: 'DA5CF60941',
  uid: '04DE5F1EACC040',
  counterBytes: '3D0000',
  counter: 61,
  sv2: '3CC30001008004DE5F1EACC0403D0000',
  sesMacKey: '3FB5F6E3A807A03D5E3570ACE393776F',
} as const;

/**
 * The PICCData value the task brief quoted (`...10E8DD6B`) is not the AN12196 value (`...10671E88`):
 * it decrypts with the zero key to tag 0xDB, i.e. not a valid NTAG 424 DNA PICCData.
 */
export const BRIEF_TYPO_PICC_DATA = 'EF963FF7828658A599F3041510E8DD6B';

export const WITH_ENC_FILE_DATA = {
  url:
    'https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40' +
    '&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6',
  piccData: 'FD91EC264309878BE6345CBE53BADF40',
  encFileData: 'CEE9A53E3E463EF1F459635736738962',
  cmac: 'ECC1E7F6C6C73BF6',
  macInput: 'CEE9A53E3E463EF1F459635736738962&cmac=',
  piccPadding: 'A243C86DFC',
  uid: '04958CAA5C5E80',
  counterBytes: '080000',
  counter: 8,
  sesMacKey: '3ED0920E5E6A0320D823D5987FEAFBB1',
  fullMac: '81EC45C175E72FF6FAC61BC7AB3BAEF6',
  fileData: 'xxxxxxxxxxxxxxxx',
} as const;

/** RFC 4493 section 4 test vectors (AES-128 key 2b7e1516...). */
export const RFC4493 = {
  key: '2b7e151628aed2a6abf7158809cf4f3c',
  l: '7df76b0c1ab899b33e42f047b91b546f',
  k1: 'fbeed618357133667c85e08f7236a8de',
  k2: 'f7ddac306ae266ccf90bc11ee46d513b',
  examples: [
    { len: 0, mac: 'bb1d6929e95937287fa37d129b756746' },
    { len: 16, mac: '070a16b46b4d4144f79bdd9dd04a287c' },
    { len: 40, mac: 'dfa66747de9ae63030ca32611497c827' },
    { len: 64, mac: '51f0bebf7e3b9d92fc49741779363cfe' },
  ],
  message:
    '6bc1bee22e409f96e93d7e117393172a' +
    'ae2d8a571e03ac9c9eb76fac45af8e51' +
    '30c81c46a35ce411e5fbc1191a0a52ef' +
    'f69f2445df4f9b17ad2b417be66c3710',
} as const;

export const hex = (s: string): Buffer => Buffer.from(s, 'hex');
